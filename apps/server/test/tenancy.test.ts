import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TENANCY_CASES } from '../src/modules/connections/connections.tenancy';
import { createUser, openSocket, recordEvents, type TTenant } from './fixtures';
import { startTestServer, type TTestServer } from './harness';
import { type TTenancyCase, tenancySuite } from './tenancy';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** B's user as B's admin sees it, plus its password hash, so a takeover through PUT shows */
const readUser = async (s: TTestServer, tenant: TTenant, id: number) => {
  const res = await s.request('GET', `/api/users/${id}`, { token: tenant.token });
  expect(res.status).toBe(200);
  const { rows } = await s.database.executeSql('select password_hash from users where id = $1', [id]);

  return { user: res.body, hash: (rows[0] as { password_hash: string }).password_hash };
};

const takeover = { name: 'Hijacked', email: 'hijacked@evil.test', password: 'Hijack-Pass-1', profile: 'admin' };
const userRoutes: TTenancyCase['routes'] = [
  { method: 'GET', path: (id) => `/api/users/${id}` },
  { method: 'PUT', path: (id) => `/api/users/${id}`, body: takeover },
  { method: 'PUT', path: (id) => `/api/users/${id}`, body: { password: 'Hijack-Pass-1' } },
  { method: 'DELETE', path: (id) => `/api/users/${id}` },
];

const schedules = [{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '23:59' }];

/** every module adds its tenant-owned resources here */
const CASES: TTenancyCase[] = [
  {
    name: 'a user',
    create: async (s, tenant) => (await createUser(s, tenant, { name: 'Beta Agent' })).id,
    routes: userRoutes,
    read: readUser,
    markers: async (s, tenant, id) => [(await readUser(s, tenant, id)).user.email],
  },
  {
    name: "the company's admin",
    create: async (_s, tenant) => tenant.user.id,
    routes: userRoutes,
    read: readUser,
  },
  {
    name: 'the company',
    create: async (_s, tenant) => tenant.companyId,
    routes: [
      { method: 'GET', path: (id) => `/api/companies/${id}` },
      { method: 'PUT', path: (id) => `/api/companies/${id}/schedules`, body: { schedules } },
      { method: 'GET', path: (id) => `/api/companies/listPlan/${id}` },
    ],
  },
  ...CONNECTION_TENANCY_CASES,
];

tenancySuite(() => server, CASES, { lists: ['/api/users', '/api/users/list', '/api/settings'] });

const settingOf = async (tenant: TTenant, key: string) =>
  (await server.request('GET', '/api/settings', { token: tenant.token })).body.find(
    (s: { key: string }) => s.key === key,
  )?.value;

describe('settings across tenants', () => {
  it("A's updates never change B's values, and B's secrets never reach A", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const secret = '{"token":"beta-only-secret-42"}';
    expect(
      (await server.request('PUT', '/api/settings/asaas', { token: b.token, body: { value: secret } })).status,
    ).toBe(200);

    for (const [key, value] of [
      ['userRating', 'enabled'],
      ['userCreation', 'disabled'],
      ['asaas', '{"token":"alpha"}'],
    ]) {
      const res = await server.request('PUT', `/api/settings/${key}`, { token: a.token, body: { value } });
      expect(res.status).toBe(200);
      expect(await settingOf(a, key)).toBe(value);
    }
    expect(await settingOf(b, 'userRating')).toBe('disabled');
    expect(await settingOf(b, 'userCreation')).toBe('enabled');
    expect(await settingOf(b, 'asaas')).toBe(secret);
    const forA = await server.request('GET', '/api/settings', { token: a.token });
    expect(JSON.stringify(forA.body)).not.toContain('beta-only-secret');
    // B's admin still creates users: A's userCreation=disabled stayed in A
    expect(
      (
        await server.request('POST', '/api/users', {
          token: b.token,
          body: { name: 'Beta New', email: `beta-new-${b.companyId}@example.com`, password: 'User-Pass-1' },
        })
      ).status,
    ).toBe(201);
  });
});

describe('socket rooms across tenants', () => {
  it("a socket of company B hears none of company A's user and settings events", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const aSocket = await openSocket(server, a.token);
    const bSocket = await openSocket(server, b.token);
    const aEvents = recordEvents(aSocket);
    const bEvents = recordEvents(bSocket);
    try {
      const created = await createUser(server, a, { name: 'Alpha Agent' });
      await server.request('PUT', `/api/users/${created.id}`, { token: a.token, body: { name: 'Alpha Agent 2' } });
      await server.request('PUT', '/api/settings/userRating', { token: a.token, body: { value: 'enabled' } });
      await server.request('PUT', '/api/settings/asaas', {
        token: a.token,
        body: { value: '{"token":"alpha-secret"}' },
      });
      await server.request('DELETE', `/api/users/${created.id}`, { token: a.token });

      const userEvent = `company-${a.companyId}-user`;
      const settingsEvent = `company-${a.companyId}-settings`;
      await aEvents.waitFor(userEvent, (p) => p.action === 'delete');
      await aEvents.waitFor(settingsEvent, (p) => p.setting.key === 'asaas');
      expect(
        aEvents.heard.filter((h) => h.event === userEvent).map((h) => (h.payload as { action: string }).action),
      ).toEqual(['create', 'update', 'delete']);

      // B's socket is live: it hears its own company's event, which was emitted after all of A's
      await server.request('PUT', '/api/settings/userRating', { token: b.token, body: { value: 'enabled' } });
      await bEvents.waitFor(`company-${b.companyId}-settings`);
      expect(bEvents.heard.map((h) => h.event)).toEqual([`company-${b.companyId}-settings`]);
      expect(JSON.stringify(bEvents.heard)).not.toContain('alpha');
    } finally {
      aSocket.disconnect();
      bSocket.disconnect();
    }
  });

  it("a socket of company B hears none of company A's payment event", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const superToken = (await server.superLogin()).token;
    const invoiceOf = async (t: TTenant) => {
      const { rows } = await server.database.executeSql(
        `insert into invoices (company_id, detail, value, due_date) values ($1, 'Fatura', 30, '2031-01-01') returning id`,
        [t.companyId],
      );
      return (rows[0] as { id: number }).id;
    };
    const aSocket = await openSocket(server, a.token);
    const bSocket = await openSocket(server, b.token);
    const aEvents = recordEvents(aSocket);
    const bEvents = recordEvents(bSocket);
    try {
      const paid = await server.request('PUT', `/api/invoices/${await invoiceOf(a)}`, {
        token: superToken,
        body: { status: 'paid' },
      });
      expect(paid.status).toBe(200);
      const heard = await aEvents.waitFor(`company-${a.companyId}-payment`);
      expect(heard).toMatchObject({ action: 'CONCLUIDA', company: { id: a.companyId } });

      // B's socket is live: it hears its own payment, emitted after A's
      await server.request('PUT', `/api/invoices/${await invoiceOf(b)}`, {
        token: superToken,
        body: { status: 'paid' },
      });
      await bEvents.waitFor(`company-${b.companyId}-payment`);
      expect(bEvents.heard.map((h) => h.event)).toEqual([`company-${b.companyId}-payment`]);
    } finally {
      aSocket.disconnect();
      bSocket.disconnect();
    }
  });
});

describe('contact list events across tenants', () => {
  it("a socket of company B hears none of company A's ContactList and ContactListItem events", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const aSocket = await openSocket(server, a.token);
    const bSocket = await openSocket(server, b.token);
    const aEvents = recordEvents(aSocket);
    const bEvents = recordEvents(bSocket);
    try {
      const list = await server.request('POST', '/api/contact-lists', { token: a.token, body: { name: 'Alpha List' } });
      const item = await server.request('POST', '/api/contact-list-items', {
        token: a.token,
        body: { name: 'Alpha Item', number: '5511987600001', contactListId: list.body.id },
      });
      await server.request('DELETE', `/api/contact-list-items/${item.body.id}`, { token: a.token });
      await server.request('DELETE', `/api/contact-lists/${list.body.id}`, { token: a.token });
      const listEvent = `company-${a.companyId}-ContactList`;
      const itemEvent = `company-${a.companyId}-ContactListItem`;
      await aEvents.waitFor(listEvent, (p) => p.action === 'delete');
      expect(
        aEvents.heard.filter((h) => h.event === itemEvent).map((h) => (h.payload as { action: string }).action),
      ).toEqual(['create', 'delete']);

      // B's socket is live: its own list's event arrives, after all of A's
      await server.request('POST', '/api/contact-lists', { token: b.token, body: { name: 'Beta List' } });
      await bEvents.waitFor(`company-${b.companyId}-ContactList`);
      expect(bEvents.heard.map((h) => h.event)).toEqual([`company-${b.companyId}-ContactList`]);
      expect(JSON.stringify(bEvents.heard)).not.toContain('Alpha');
    } finally {
      aSocket.disconnect();
      bSocket.disconnect();
    }
  });
});
