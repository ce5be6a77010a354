import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInboundHandlers } from '../src/inbound/index';
import { isCompanyActive } from '../src/modules/companies/company-active';
import {
  createLoggedUser,
  createUser,
  insertConnection,
  insertQueue,
  scanSandbox,
  type TTenant,
  unique,
} from './fixtures';
import { startTestServer, type TTestServer } from './harness';
import { inbound, randomNumber } from './inbox';

/**
 * Expiry on the server (issue 13 item 4): past the due date an attendant cannot sign in, an admin gets a
 * pay-only session that reaches only the session, invoices, plans and checkout routes, the company's
 * inbound is still stored while its bots pause, and paying (the due date moved forward) restores it all.
 */

process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

let server: TTestServer;
let superToken: string;
beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.superLogin()).token;
  await server.database.executeSql('update plans set connections = 50, queues = 50, users = 50');
});
afterAll(() => server.close());

const PAST = '2020-01-01';
const FUTURE = '2099-12-31';

const setDueDate = async (companyId: number, dueDate: string) => {
  const res = await server.request('PUT', `/api/companies/${companyId}`, { token: superToken, body: { dueDate } });
  expect(res.status).toBe(200);
};

const loginAnswer = (email: string, password: string) =>
  server.request('POST', '/api/auth/login', { body: { email, password } });

const refreshWith = (cookie: string) => server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: cookie } });

/** the routes a pay-only session reaches, written out apart from the rule in http/pay-only.ts */
const PAY_ONLY_EXACT = new Set([
  'GET /api/auth/me',
  'DELETE /api/auth/logout',
  // session preferences and the own company's reads the pay screens use (declared allowExpired)
  'POST /api/users/set-language/:lang',
  'GET /api/companies/:id',
  'GET /api/companies/listPlan/:companyId',
]);
const payOnlyExpected = (method: string, url: string) =>
  PAY_ONLY_EXACT.has(`${method} ${url}`) ||
  /^\/api\/(invoices|subscription)(\/|$)/.test(url) ||
  (method === 'GET' && /^\/api\/plans(\/|$)/.test(url));

const concrete = (url: string, companyId: number) =>
  url.replace(/:(\w+)/g, (_m, name: string) =>
    name === 'lang'
      ? 'pt'
      : name === 'key'
        ? 'userRating'
        : name === 'companyId' || name === 'id'
          ? String(companyId)
          : '1',
  );

describe('signing in past the due date', () => {
  it("refuses an attendant with the spec's message and opens a pay-only session for an admin", async () => {
    const tenant = await server.createTenant('Late');
    const attendant = await createUser(server, tenant, { profile: 'user' });
    await setDueDate(tenant.companyId, PAST);

    const refused = await loginAnswer(attendant.email, attendant.password);
    expect(refused).toMatchObject({
      status: 402,
      body: { error: 'ERR_SUBSCRIPTION_EXPIRED', message: `Your subscription expired on ${PAST}. Contact support.` },
    });

    const admin = await loginAnswer(tenant.email, tenant.password);
    expect(admin.status).toBe(200);
    expect(admin.body.user.company).toMatchObject({ dueDate: PAST, payOnly: true });
    const token = admin.body.token as string;
    expect(await server.request('GET', '/api/auth/me', { token })).toMatchObject({
      status: 200,
      body: { company: { payOnly: true } },
    });
    expect(await server.request('GET', '/api/settings', { token })).toMatchObject({
      status: 402,
      body: { error: 'ERR_SUBSCRIPTION_EXPIRED' },
    });
    expect((await server.request('GET', '/api/subscription/usage', { token })).status).toBe(200);
  });

  it('the super user is never pay-only', async () => {
    const me = await server.request('GET', '/api/auth/me', { token: superToken });
    expect(me.body.company.payOnly).toBe(false);
  });

  it('a pay-only session gets 402 from every route except auth, invoices, plans and checkout', async () => {
    const tenant = await server.createTenant('PayOnly');
    await setDueDate(tenant.companyId, PAST);
    const { token } = await server.login(tenant.email, tenant.password);
    // a connection-token route (the external API) and /metrics (the operator's token) do not take a session
    const guarded = server.app.declaredRoutes.filter(
      (r) => r.decl && !['public', 'refresh', 'token', 'metrics'].includes(r.decl.auth),
    );
    expect(guarded.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    let refused = 0;
    for (const r of guarded) {
      if (r.method === 'DELETE' && r.url === '/api/auth/logout') continue; // checked last: it ends the session
      const res = await server.request(r.method, concrete(r.url, tenant.companyId), {
        token,
        body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      });
      const expected = payOnlyExpected(r.method, r.url);
      if (!expected) refused += 1;
      const is402 = res.status === 402 && res.body?.error === 'ERR_SUBSCRIPTION_EXPIRED';
      if (expected === is402) wrong.push(`${r.method} ${r.url} → ${res.status}`);
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(100);
    expect((await server.request('DELETE', '/api/auth/logout', { token })).status).toBe(204);
  });

  it('an attendant session open when the due date passes reaches only its logout, and cannot refresh', async () => {
    const tenant = await server.createTenant('AgentLate');
    const attendant = await createUser(server, tenant, { profile: 'user' });
    const session = await server.login(attendant.email, attendant.password);
    expect((await server.request('GET', '/api/settings', { token: session.token })).status).toBe(200);
    await setDueDate(tenant.companyId, PAST);
    for (const path of ['/api/settings', '/api/auth/me', '/api/subscription/usage']) {
      expect((await server.request('GET', path, { token: session.token })).status, path).toBe(402);
    }
    expect(await refreshWith(session.refresh)).toMatchObject({
      status: 402,
      body: { error: 'ERR_SUBSCRIPTION_EXPIRED' },
    });
    expect((await server.request('DELETE', '/api/auth/logout', { token: session.token })).status).toBe(204);
  });
});

describe('an open session follows the due date', () => {
  it('turns pay-only on its next request and refresh, and works again once paid, without a new login', async () => {
    const tenant = await server.createTenant('Follows');
    const { token, refresh } = await server.login(tenant.email, tenant.password);
    expect((await server.request('GET', '/api/queue', { token })).status).toBe(200);

    await setDueDate(tenant.companyId, PAST);
    expect((await server.request('GET', '/api/queue', { token })).status).toBe(402);
    const refreshed = await refreshWith(refresh);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.company.payOnly).toBe(true);
    const next = refreshed.body.token as string;
    expect((await server.request('GET', '/api/queue', { token: next })).status).toBe(402);

    // paid: the due date moves forward
    await setDueDate(tenant.companyId, FUTURE);
    expect((await server.request('GET', '/api/queue', { token: next })).status).toBe(200);
    expect((await server.request('GET', '/api/queue', { token })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: next })).body.company.payOnly).toBe(false);
  });
});

describe('inbound while expired', () => {
  const sql = async <T = any>(text: string, values: unknown[] = []) =>
    (await server.database.executeSql(text, values)).rows as T[];

  /** a connected sandbox connection whose greeting offers two queues */
  const connect = async (tenant: TTenant) => {
    const q1 = await insertQueue(server, tenant.companyId);
    const q2 = await insertQueue(server, tenant.companyId);
    const created = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      body: { name: unique('Conn'), greetingMessage: 'Bem-vindo! Escolha:', queueIds: [q1, q2] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return scanSandbox(server, tenant.token, created.body.id as number);
  };

  const messagesOf = (connectionId: number, number: string) =>
    sql<{ body: string; source: string; from_me: boolean }>(
      `select m.body, m.source, m.from_me from messages m join contacts c on c.id = m.contact_id
       where m.whatsapp_id = $1 and c.number = $2 order by m.id`,
      [connectionId, number],
    );

  it('stores what customers send while the bots pause, and the bots answer again once paid', async () => {
    const tenant = await server.createTenant('Inbound');
    const connectionId = await connect(tenant);
    const handlers = createInboundHandlers(server.ctx, { batched: false, mediaRetryMs: 1 });
    const write = async (from: string, body: string) => handlers.onMessage?.(inbound(connectionId, from, { body }));

    const before = randomNumber();
    await write(before, 'oi');
    expect((await messagesOf(connectionId, before)).map((m) => m.source)).toEqual(['customer', 'bot']);

    await setDueDate(tenant.companyId, PAST);
    expect(await isCompanyActive(server.ctx, tenant.companyId)).toBe(false);
    const during = randomNumber();
    await write(during, 'alguém aí?');
    await write(during, 'preciso de ajuda');
    const stored = await messagesOf(connectionId, during);
    expect(stored.map((m) => [m.source, m.body])).toEqual([
      ['customer', 'alguém aí?'],
      ['customer', 'preciso de ajuda'],
    ]);
    const [ticket] = await sql<{ status: string }>(
      `select t.status from tickets t join contacts c on c.id = t.contact_id where t.whatsapp_id = $1 and c.number = $2`,
      [connectionId, during],
    );
    expect(ticket.status).toBe('pending');

    await setDueDate(tenant.companyId, FUTURE);
    expect(await isCompanyActive(server.ctx, tenant.companyId)).toBe(true);
    await write(during, 'olá de novo');
    expect((await messagesOf(connectionId, during)).map((m) => m.source)).toEqual([
      'customer',
      'customer',
      'customer',
      'bot',
    ]);
    // nothing of the company was deleted meanwhile
    expect((await messagesOf(connectionId, before)).length).toBe(2);
  });

  it('isCompanyActive: past due or inactive is paused; the answer is kept until the company changes', async () => {
    const tenant = await server.createTenant('Active');
    expect(await isCompanyActive(server.ctx, tenant.companyId)).toBe(true);
    // a change made behind the API is not seen while kept (a few seconds) …
    await sql('update companies set status = false where id = $1', [tenant.companyId]);
    expect(await isCompanyActive(server.ctx, tenant.companyId)).toBe(true);
    // … and is once the company is forgotten, as every company update does
    await server.ctx.sessions.forget({ companyId: tenant.companyId });
    expect(await isCompanyActive(server.ctx, tenant.companyId)).toBe(false);
    await server.request('PUT', `/api/companies/${tenant.companyId}`, {
      token: superToken,
      body: { status: true, dueDate: '2030-06-10' },
    });
    expect(await isCompanyActive(server.ctx, tenant.companyId, new Date('2030-06-10T12:00:00Z'))).toBe(true);
    expect(await isCompanyActive(server.ctx, tenant.companyId, new Date('2030-06-11T12:00:00Z'))).toBe(false);
    expect(await isCompanyActive(server.ctx, 2_000_000_000)).toBe(false);
  });
});

describe('GET /api/subscription/usage', () => {
  it("counts the company's users, connections and queues against its plan, with the trial's days left", async () => {
    const tenant = await server.createTenant('Usage');
    await createLoggedUser(server, tenant, { profile: 'user' });
    await createUser(server, tenant, { profile: 'user' });
    await insertQueue(server, tenant.companyId);
    await insertConnection(server, tenant.companyId);
    await insertConnection(server, tenant.companyId);
    const other = await server.createTenant('Other');
    await insertQueue(server, other.companyId);

    const res = await server.request('GET', '/api/subscription/usage', {
      token: tenant.token,
      query: { companyId: other.companyId },
    });
    expect(res.status).toBe(200);
    expect(res.body.usage).toEqual({ users: 3, connections: 2, queues: 1 });
    expect(res.body.plan).toMatchObject({ id: tenant.company.planId, users: 50, connections: 50, queues: 50 });
    expect(res.body.company).toMatchObject({
      id: tenant.companyId,
      onTrial: true,
      trialDaysLeft: 3,
      payOnly: false,
      dueDate: tenant.company.dueDate,
    });
    const theirs = await server.request('GET', '/api/subscription/usage', { token: other.token });
    expect(theirs.body.usage).toEqual({ users: 1, connections: 0, queues: 1 });

    // paid past the trial's end: no longer on trial
    await setDueDate(tenant.companyId, FUTURE);
    const paid = await server.request('GET', '/api/subscription/usage', { token: tenant.token });
    expect(paid.body.company).toMatchObject({ onTrial: false, trialDaysLeft: null, dueDate: FUTURE });
  });
});
