import { ZPlan } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlan, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let superToken: string;
let tenant: TTenant;
beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.superLogin()).token;
  tenant = await server.createTenant();
});
afterAll(() => server.close());

const planBody = (fields: Record<string, unknown> = {}) => ({
  name: unique('Plan'),
  users: 5,
  connections: 2,
  queues: 3,
  value: 199.9,
  useKanban: false,
  ...fields,
});

describe('GET /plans/list (public)', () => {
  it('answers every plan without a token, sorted by value', async () => {
    const cheap = await createPlan(server, superToken, { value: 500 });
    const dear = await createPlan(server, superToken, { value: 1500 });
    const res = await server.request('GET', '/api/plans/list');
    expect(res.status).toBe(200);
    const ids = res.body.map((p: { id: number }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([cheap.id, dear.id]));
    expect(ids.indexOf(cheap.id)).toBeLessThan(ids.indexOf(dear.id));
    const values = res.body.map((p: { value: number }) => p.value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });
});

describe('plans as super user', () => {
  it('creates (201), shows, updates and deletes (204) a plan', async () => {
    const body = planBody();
    const created = await server.request('POST', '/api/plans', { token: superToken, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...body, useKanban: false, useCampaigns: true, id: expect.any(Number) });
    const path = `/api/plans/${created.body.id}`;

    expect(await server.request('GET', path, { token: superToken })).toMatchObject({
      status: 200,
      body: { name: body.name },
    });

    const changed = planBody({ name: body.name, users: 8, value: 250, useKanban: true, useOpenAi: false });
    const updated = await server.request('PUT', path, { token: superToken, body: changed });
    expect(updated).toMatchObject({ status: 200, body: { users: 8, value: 250, useKanban: true, useOpenAi: false } });
    expect((await server.request('GET', path, { token: superToken })).body).toMatchObject({
      users: 8,
      useOpenAi: false,
    });

    expect((await server.request('DELETE', path, { token: superToken })).status).toBe(204);
    expect(await server.request('GET', path, { token: superToken })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_PLAN_FOUND' },
    });
    const list = await server.request('GET', '/api/plans/list');
    expect(list.body.map((p: { id: number }) => p.id)).not.toContain(created.body.id);
  });

  it('lists with search and paging, and /plans/all answers every plan', async () => {
    const prefix = unique('Paged');
    for (let i = 0; i < 21; i += 1)
      await createPlan(server, superToken, { name: `${prefix} ${String(i).padStart(2, '0')}` });
    const page1 = await server.request('GET', '/api/plans', { token: superToken, query: { searchParam: prefix } });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ count: 21, hasMore: true });
    expect(page1.body.plans).toHaveLength(20);
    const page2 = await server.request('GET', '/api/plans', {
      token: superToken,
      query: { searchParam: prefix, pageNumber: 2 },
    });
    expect(page2.body).toMatchObject({ count: 21, hasMore: false });
    expect(page2.body.plans).toHaveLength(1);

    const all = await server.request('GET', '/api/plans/all', { token: superToken });
    expect(all.body.filter((p: { name: string }) => p.name.startsWith(prefix))).toHaveLength(21);
  });

  it('refuses a name in use, whatever its case, with 409 ERR_DUPLICATED_PLAN', async () => {
    const first = await createPlan(server, superToken);
    const dup = await server.request('POST', '/api/plans', {
      token: superToken,
      body: planBody({ name: first.name.toUpperCase() }),
    });
    expect(dup).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_PLAN' } });

    const second = await createPlan(server, superToken);
    const rename = await server.request('PUT', `/api/plans/${second.id}`, {
      token: superToken,
      body: planBody({ name: ` ${first.name.toLowerCase()} ` }),
    });
    expect(rename).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_PLAN' } });
    expect((await server.request('GET', `/api/plans/${second.id}`, { token: superToken })).body.name).toBe(second.name);

    // keeping its own name is no conflict
    const same = await server.request('PUT', `/api/plans/${second.id}`, {
      token: superToken,
      body: planBody({ name: second.name }),
    });
    expect(same.status).toBe(200);
  });

  it('refuses to delete a plan a company uses (409 ERR_PLAN_IN_USE)', async () => {
    const plan = await createPlan(server, superToken);
    const other = await server.createTenant();
    await server.request('PUT', `/api/companies/${other.companyId}`, { token: superToken, body: { planId: plan.id } });
    const res = await server.request('DELETE', `/api/plans/${plan.id}`, { token: superToken });
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_PLAN_IN_USE' } });
    expect((await server.request('GET', `/api/plans/${plan.id}`, { token: superToken })).status).toBe(200);
  });

  it('answers 404 ERR_NO_PLAN_FOUND for a missing plan', async () => {
    for (const [method, body] of [['GET'], ['PUT', planBody()], ['DELETE']] as const) {
      const res = await server.request(method, '/api/plans/2000000000', { token: superToken, body });
      expect(res, method).toMatchObject({ status: 404, body: { error: 'ERR_NO_PLAN_FOUND' } });
    }
  });

  it.each([
    ['a short name', { name: 'P' }, 'name'],
    ['a negative user limit', { users: -1 }, 'users'],
    ['a fractional connection limit', { connections: 1.5 }, 'connections'],
    ['a non-numeric value', { value: 'abc' }, 'value'],
    ['a missing queue limit', { queues: undefined }, 'queues'],
    ['a non-boolean flag', { useCampaigns: 'yes' }, 'useCampaigns'],
  ])('refuses %s with 400 ERR_VALIDATION', async (_label, fields, path) => {
    const body = planBody(fields);
    const res = await server.request('POST', '/api/plans', { token: superToken, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    const all = await server.request('GET', '/api/plans/all', { token: superToken });
    expect(all.body.map((p: { name: string }) => p.name)).not.toContain(body.name);
  });
});

describe('plans as an admin', () => {
  it('gets 403 ERR_NO_PERMISSION on every super route and changes nothing', async () => {
    const plan = await createPlan(server, superToken);
    // reading one plan is any signed-in user's (the ancestor's Pay wizard; a 403 there ended its session)
    expect(await server.request('GET', `/api/plans/${plan.id}`, { token: tenant.token })).toMatchObject({
      status: 200,
      body: { id: plan.id, name: plan.name },
    });
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/plans'],
      ['POST', '/api/plans', planBody()],
      ['PUT', `/api/plans/${plan.id}`, planBody({ users: 1000 })],
      ['DELETE', `/api/plans/${plan.id}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await server.request(method, path, { token: tenant.token, body });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    const kept = await server.request('GET', `/api/plans/${plan.id}`, { token: superToken });
    expect(kept.body).toMatchObject({ users: plan.users, name: plan.name });
  });

  it('needs a session for the super routes (401 without a token)', async () => {
    expect(await server.request('GET', '/api/plans')).toMatchObject({
      status: 401,
      body: { error: 'ERR_NOT_AUTHENTICATED' },
    });
  });

  it("reads /plans/all logged out (the ancestor's sign-up page): the public list, as /plans/list answers", async () => {
    await createPlan(server, superToken);
    const open = await server.request('GET', '/api/plans/all');
    expect(open.status).toBe(200);
    expect(open.body).toEqual((await server.request('GET', '/api/plans/list')).body);
    expect(Object.keys(open.body[0]).sort()).toEqual(Object.keys(ZPlan.shape).sort());
    expect((await server.request('GET', '/api/plans/all', { token: tenant.token })).body).toEqual(open.body);
  });
});
