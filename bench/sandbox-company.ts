import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TAppContext } from '../apps/server/src/lib/context';

/** polls until `check` holds, or throws after `timeoutMs` */
export const until = async (check: () => Promise<boolean>, timeoutMs: number, everyMs = 50) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

/** an in-process caller of the app's HTTP API (no socket), answering status and parsed JSON */
export const injectCaller =
  (app: FastifyInstance) => async (method: string, url: string, token?: string, payload?: object) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  };

/**
 * A company signed up through the API on the first plan, its admin logged in, and a sandbox connection paired
 * and connected: what the in-process benchmarks (campaigns, flows) start from.
 */
export const sandboxCompany = async (app: FastifyInstance, ctx: TAppContext, name: string) => {
  const call = injectCaller(app);
  const plans = await call('GET', '/api/plans/list');
  const email = `bench-${randomBytes(3).toString('hex')}@example.com`;
  const company = await call('POST', '/api/companies/cadastro', undefined, {
    name,
    email,
    password: 'Bench-Pass-1',
    phone: '11999998888',
    planId: plans.body[0].id,
  });
  const companyId = company.body.id as number;
  const token = (await call('POST', '/api/auth/login', undefined, { email, password: 'Bench-Pass-1' })).body
    .token as string;
  const conn = (await call('POST', '/api/whatsapp', token, { name: 'Bench Sandbox' })).body.id as number;
  await until(async () => ctx.channels.state(conn)?.status === 'qrcode', 30_000);
  await call('POST', `/api/sandbox/${conn}/scan`, token, {});
  await until(async () => ctx.channels.state(conn)?.status === 'CONNECTED', 30_000);

  return { call, companyId, token, conn };
};
