import { beforeAll, describe, expect, it } from 'vitest';
import type { TTenant } from './fixtures';
import type { TTestServer } from './harness';

/**
 * The cross-tenant harness. Each module adds its resources as cases; for every case the suite creates
 * the resource in company B and checks that company A's admin:
 * - gets 404 on every route of the case with B's id, the very answer of a missing id (never 403 or 200);
 * - leaves B's resource exactly as it was (B's own read before and after);
 * - never sees B's data in A's list answers.
 */

export type TTenancyRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (id: number) => string;
  /** a body, or one built from the id (routes that take the id in the body, as the ancestor's PUT /flowbuilder) */
  body?: unknown | ((id: number) => unknown);
};

export type TTenancyCase = {
  name: string;
  /** creates the resource in the tenant's company and answers its id */
  create: (server: TTestServer, tenant: TTenant) => Promise<number>;
  routes: TTenancyRoute[];
  /**
   * B's own view of the resource, compared before and after A's attempts. Defaults to B's admin's answer
   * on the case's first GET route, which must be 200 (so a 404 for everybody can not pass the suite).
   */
  read?: (server: TTestServer, tenant: TTenant, id: number) => Promise<unknown>;
  /** texts that identify the resource; none may appear in A's list answers */
  markers?: (server: TTestServer, tenant: TTenant, id: number) => Promise<string[]>;
};

export type TTenancyOptions = {
  /** list routes read by A's admin, whose answers must hold nothing of B */
  lists: string[];
};

/** an id no table holds, valid for the id schema */
export const MISSING_ID = 2_000_000_000;

const defaultRead = (c: TTenancyCase) => async (server: TTestServer, tenant: TTenant, id: number) => {
  const get = c.routes.find((r) => r.method === 'GET');
  if (!get) throw new Error(`tenancy case ${c.name} needs a GET route or a read()`);
  const res = await server.request('GET', get.path(id), { token: tenant.token });
  expect(res.status, `B reads its own ${c.name}`).toBe(200);

  return res.body;
};

/** A's admin on B's id must get the missing-id answer, and B's resource must stay as it was */
export const checkTenancyCase = async (server: TTestServer, a: TTenant, b: TTenant, c: TTenancyCase) => {
  const id = await c.create(server, b);
  const read = c.read ?? defaultRead(c);
  const before = await read(server, b, id);
  for (const route of c.routes) {
    const label = `${route.method} ${route.path(id)} (${c.name})`;
    const bodyOf = (of: number) => (typeof route.body === 'function' ? route.body(of) : route.body);
    const missing = await server.request(route.method, route.path(MISSING_ID), {
      token: a.token,
      body: bodyOf(MISSING_ID),
    });
    expect(missing.status, `${label} on a missing id`).toBe(404);
    const foreign = await server.request(route.method, route.path(id), { token: a.token, body: bodyOf(id) });
    expect(foreign.status, label).toBe(404);
    expect(foreign.body, label).toEqual(missing.body);
  }
  expect(await read(server, b, id), `B's ${c.name} after A's attempts`).toEqual(before);
};

/** the texts of B that A must never see: its company, its admin, and each case's markers */
export const tenantMarkers = async (server: TTestServer, b: TTenant, cases: TTenancyCase[]) => {
  const markers = [b.company.name, b.email];
  for (const c of cases) {
    const id = await c.create(server, b);
    if (c.markers) markers.push(...(await c.markers(server, b, id)));
  }

  return markers;
};

export const checkLists = async (server: TTestServer, a: TTenant, b: TTenant, lists: string[], markers: string[]) => {
  for (const path of lists) {
    const res = await server.request('GET', path, { token: a.token });
    expect(res.status, path).toBe(200);
    const text = JSON.stringify(res.body);
    // A's own data shows up, so the list is not merely empty
    const own = [a.email, `"companyId":${a.companyId}`, '"key":'];
    expect(
      own.some((m) => text.includes(m)),
      `${path} shows A's data`,
    ).toBe(true);
    for (const marker of markers) expect(text, `${path} leaks ${marker}`).not.toContain(marker);
    expect(text, `${path} leaks company ${b.companyId}`).not.toMatch(new RegExp(`"companyId":${b.companyId}\\b`));
  }
};

/** registers the suite: one test per case, and one for the lists */
export const tenancySuite = (getServer: () => TTestServer, cases: TTenancyCase[], opts: TTenancyOptions) => {
  describe('cross-tenant access', () => {
    let a: TTenant;
    let b: TTenant;
    beforeAll(async () => {
      a = await getServer().createTenant('Alpha');
      b = await getServer().createTenant('Beta');
    });

    for (const c of cases) {
      it(`${c.name}: A's admin gets the missing-id 404 on B's ids and B's data is untouched`, () =>
        checkTenancyCase(getServer(), a, b, c));
    }

    it(`A's lists (${opts.lists.join(', ')}) hold nothing of B`, async () => {
      const markers = await tenantMarkers(getServer(), b, cases);
      await checkLists(getServer(), a, b, opts.lists, markers);
    });
  });
};
