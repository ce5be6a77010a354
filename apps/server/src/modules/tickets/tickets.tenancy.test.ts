import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { insertContact, insertDefaultConnection, pendingTicket, setupInbox } from '../../../test/inbox';
import { type TTenancyCase, tenancySuite } from '../../../test/tenancy';

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
});
afterAll(() => server.close());

const uuids = new Map<number, string>();
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

/** an open ticket of the tenant's admin with a customer message and one sent message */
const openTicketOf = async (s: TTestServer, tenant: Parameters<TTenancyCase['create']>[1]) => {
  const connectionId = await insertDefaultConnection(s, tenant.companyId).catch(async () => {
    const { rows } = await s.database.executeSql('select id from whatsapps where company_id = $1 and is_default', [
      tenant.companyId,
    ]);
    return (rows[0] as { id: number }).id;
  });
  fake.connect(connectionId);
  const { ticketId } = await pendingTicket(s, tenant, connectionId, { name: `Secret Beta ${tenant.companyId}` });
  await s.request('PUT', `/api/tickets/${ticketId}`, { token: tenant.token, body: { status: 'open' } });
  const sent = await s.request('POST', `/api/messages/${ticketId}`, {
    token: tenant.token,
    body: { body: 'beta secret text' },
  });
  const ticket = await s.request('GET', `/api/tickets/${ticketId}`, { token: tenant.token });
  uuids.set(ticketId, ticket.body.uuid);

  return { ticketId, messageId: sent.body.id as number };
};

const CASES: TTenancyCase[] = [
  {
    name: 'a ticket',
    create: async (s, tenant) => (await openTicketOf(s, tenant)).ticketId,
    routes: [
      { method: 'GET', path: (id) => `/api/tickets/${id}` },
      { method: 'GET', path: (id) => `/api/tickets/u/${uuids.get(id) ?? MISSING_UUID}` },
      { method: 'PUT', path: (id) => `/api/tickets/${id}`, body: { status: 'closed' } },
      { method: 'PUT', path: (id) => `/api/tickets/${id}`, body: { status: 'pending', userId: null } },
      { method: 'DELETE', path: (id) => `/api/tickets/${id}` },
      { method: 'GET', path: (id) => `/api/messages/${id}` },
      { method: 'POST', path: (id) => `/api/messages/${id}`, body: { body: 'hijack' } },
      { method: 'POST', path: (id) => `/api/messages/${id}/read` },
    ],
    markers: async () => ['beta secret text'],
  },
  {
    name: 'a message',
    create: async (s, tenant) => (await openTicketOf(s, tenant)).messageId,
    routes: [
      { method: 'PUT', path: (id) => `/api/messages/${id}`, body: { body: 'hijacked' } },
      { method: 'DELETE', path: (id) => `/api/messages/${id}` },
      { method: 'POST', path: (id) => `/api/messages/${id}/retry` },
    ],
    read: async (s, _tenant, id) =>
      (await s.database.executeSql('select body, is_deleted, is_edited from messages where id = $1', [id])).rows,
  },
];

tenancySuite(() => server, CASES, { lists: ['/api/users'] });

describe('tickets across tenants', () => {
  it("A's lists, searches and ticket creation never reach B", async () => {
    const a = await setupInbox(server, 'Alpha');
    const b = await server.createTenant('Beta');
    fake.connect(a.connectionId);
    await pendingTicket(server, a.tenant, a.connectionId);
    await openTicketOf(server, b);
    const bContact = await insertContact(server, b.companyId);
    const queries: Record<string, string | boolean>[] = [
      { showAll: true },
      { showAll: true, searchParam: 'beta secret' },
      { searchParam: 'Secret Beta' },
      { status: 'open', showAll: true },
    ];
    for (const query of queries) {
      const res = await server.request('GET', '/api/tickets', { token: a.tenant.token, query });
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain('Secret Beta');
      expect(text).not.toMatch(new RegExp(`"companyId":${b.companyId}\\b`));
    }
    expect(
      (await server.request('GET', '/api/tickets', { token: a.tenant.token, query: { showAll: true } })).body.count,
    ).toBeGreaterThan(0);
    const foreign = await server.request('POST', '/api/tickets', {
      token: a.tenant.token,
      body: { contactId: bContact.id },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });
});
