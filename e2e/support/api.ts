import { inject } from 'vitest';

/** Direct calls to the e2e server, to prepare data a spec does not test through the screens. */

type TJson = Record<string, unknown>;

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
}

export const apiCall = async <T = TJson>(
  method: string,
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<T> => {
  const res = await fetch(`${inject('baseUrl')}/api${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) {
    throw new ApiCallError(res.status, parsed, `${method} ${path}`);
  }

  return parsed as T;
};

export const apiLogin = async (email: string, password: string) =>
  (await apiCall<{ token: string; user: TJson }>('POST', '/auth/login', { body: { email, password } })).token;

/** A suffix that keeps names and e-mails unique across the specs of one run (one server, one database). */
export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

export type TCompanyAdmin = { companyName: string; email: string; password: string };

/** A new company through the public sign-up (3-day trial), its admin named like the company. */
export const signUpCompany = async (prefix = 'Empresa'): Promise<TCompanyAdmin> => {
  const id = unique();
  const plans = await apiCall<{ id: number; name: string }[]>('GET', '/plans/list');
  const admin = { companyName: `${prefix} ${id}`, email: `admin-${id}@e2e.test`, password: 'Admin-Pass1' };
  await apiCall('POST', '/companies/cadastro', {
    body: { name: admin.companyName, email: admin.email, password: admin.password, planId: plans[0].id },
  });

  return admin;
};

/** A user of the admin's company through POST /users. */
export const createUser = async (
  adminToken: string,
  user: { name: string; email: string; password: string; profile: 'admin' | 'user' },
) => apiCall<{ id: number }>('POST', '/users', { token: adminToken, body: user });
