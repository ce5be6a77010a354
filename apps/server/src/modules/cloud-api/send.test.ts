import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph, type TFakeGraph } from '../../../test/fake-graph';
import { createLoggedUser, insertQueue, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { createCloudLine, storedByExternalId, type TCloudLine, until } from './cloud-api.fixtures';

let server: TTestServer;
let graph: TFakeGraph;
let tenant: TTenant;
let line: TCloudLine;

beforeAll(async () => {
  server = await startTestServer();
  graph = await startFakeGraph();
  tenant = await server.createTenant('Cloud Send');
  line = await createCloudLine(server, graph, tenant);
});
afterAll(async () => {
  await server.close();
  await graph.close();
});

const HOUR = 3_600_000;

/** a customer writes (at `at`), the admin accepts the ticket: its id and the customer's wamid */
const openTicket = async (at = new Date()) => {
  const from = `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
  const inbound = await graph.customerSends(
    line.number.phoneNumberId,
    from,
    { type: 'text', text: { body: 'preciso de ajuda' } },
    { timestamp: at },
  );
  await until(
    'the message stored',
    async () => (await storedByExternalId(server, line.connectionId, inbound.externalId)).length > 0,
  );
  const [row] = await storedByExternalId(server, line.connectionId, inbound.externalId);
  const accepted = await server.request('PUT', `/api/tickets/${row.ticket_id}`, {
    token: tenant.token,
    body: { status: 'open' },
  });
  expect(accepted.status).toBe(200);

  return { ticketId: row.ticket_id, from, wamid: inbound.externalId, messageId: row.id };
};

const sendText = (ticketId: number, body: string, extra: Record<string, unknown> = {}) =>
  server.request('POST', `/api/messages/${ticketId}`, { token: tenant.token, body: { body, ...extra } });

const messagesOf = async (ticketId: number) =>
  (await server.request('GET', `/api/messages/${ticketId}`, { token: tenant.token })).body.messages as {
    id: number;
    body: string;
    ack: number;
    errorCode: string | null;
    errorMessage: string | null;
  }[];

const messageCount = async (ticketId: number) =>
  Number(
    (
      (await server.database.executeSql('select count(*) as n from messages where ticket_id = $1', [ticketId]))
        .rows[0] as { n: string }
    ).n,
  );

const externalIdOf = async (messageId: number) =>
  (
    (await server.database.executeSql('select external_id from messages where id = $1', [messageId])).rows[0] as {
      external_id: string;
    }
  ).external_id;

describe('sends through the Cloud API', () => {
  it('a quoted reply reaches Graph with context.message_id of the customer message', async () => {
    const { ticketId, from, wamid, messageId } = await openTicket();
    const res = await sendText(ticketId, 'Claro! Veja https://zelo.example', { quotedMsg: { id: messageId } });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect(res.body.errorCode).toBeNull();
    const [sent] = graph.sentTo(line.number.phoneNumberId, from);
    expect(sent.body).toMatchObject({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: from,
      type: 'text',
      text: { body: 'Claro! Veja https://zelo.example', preview_url: true },
      context: { message_id: wamid },
    });
    expect(await externalIdOf(res.body.id)).toBe(sent.wamid);
  });

  it('statuses arriving out of order never lower the ack, and replays are harmless', async () => {
    const { ticketId } = await openTicket();
    const res = await sendText(ticketId, 'status test');
    const wamid = await externalIdOf(res.body.id);
    for (const status of ['read', 'delivered', 'sent', 'read', 'delivered'] as const) {
      expect((await graph.setStatus(line.number.phoneNumberId, wamid, status)).status).toBe(200);
    }
    await until('ack read', async () => (await messagesOf(ticketId)).find((m) => m.id === res.body.id)?.ack === 4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await messagesOf(ticketId)).find((m) => m.id === res.body.id)?.ack).toBe(4);
  });

  it('a failed status shows its Graph error code and title on the message', async () => {
    const { ticketId } = await openTicket();
    const res = await sendText(ticketId, 'will fail later');
    const wamid = await externalIdOf(res.body.id);
    await graph.setStatus(line.number.phoneNumberId, wamid, 'failed', {
      errors: [{ code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' }],
    });
    await until(
      'the failure shown',
      async () => (await messagesOf(ticketId)).find((m) => m.id === res.body.id)?.ack === 0,
    );
    const failed = (await messagesOf(ticketId)).find((m) => m.id === res.body.id);
    expect(failed).toMatchObject({ ack: 0, errorCode: '131049' });
    expect(failed?.errorMessage).toContain('healthy ecosystem engagement');
  });

  it('retries a 429 (twice) and sends', async () => {
    const { ticketId, from } = await openTicket();
    const before = graph.calls.length;
    graph.fault({ kind: 'status', status: 429, retryAfter: 0 }, 2, /\/messages$/);
    const res = await sendText(ticketId, 'after the throttle');
    expect(res.body).toMatchObject({ ack: 1, errorCode: null });
    expect(graph.calls.slice(before).filter((c) => c.path.endsWith('/messages')).length).toBeGreaterThanOrEqual(3);
    expect(graph.sentTo(line.number.phoneNumberId, from).map((m) => m.body.text?.body)).toContain('after the throttle');
  });

  it('a Graph API that keeps answering 500 leaves the message failed with the reason', async () => {
    const { ticketId } = await openTicket();
    graph.fault({ kind: 'status', status: 500 }, 3, /\/messages$/);
    const res = await sendText(ticketId, 'into the void');
    expect(res.body).toMatchObject({ ack: 0, errorCode: 'ERR_SENDING_WAPP_MSG' });
    expect(res.body.errorMessage).toContain('An unknown error occurred');
    const stored = (await messagesOf(ticketId)).find((m) => m.id === res.body.id);
    expect(stored).toMatchObject({ ack: 0, errorCode: 'ERR_SENDING_WAPP_MSG' });
    graph.clearFaults();
  });

  it('an unknown number (131026) is ERR_WAPP_INVALID_CONTACT on the message', async () => {
    const { ticketId, from } = await openTicket();
    graph.unknownRecipients.add(from);
    const res = await sendText(ticketId, 'hello?');
    expect(res.body).toMatchObject({ ack: 0, errorCode: 'ERR_WAPP_INVALID_CONTACT' });
    graph.unknownRecipients.delete(from);
  });
});

describe('the 24-hour customer-service window', () => {
  it('refuses free text 25 h after the customer wrote, stores nothing, and GET /window says closed', async () => {
    const { ticketId } = await openTicket(new Date(Date.now() - 25 * HOUR));
    const before = await messageCount(ticketId);
    const sentBefore = graph.sent.length;
    const res = await sendText(ticketId, 'too late');
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_WAPP_WINDOW_CLOSED');
    expect(await messageCount(ticketId)).toBe(before);
    expect(graph.sent.length).toBe(sentBefore);
    const window = await server.request('GET', `/api/tickets/${ticketId}/window`, { token: tenant.token });
    expect(window.status).toBe(200);
    expect(window.body).toMatchObject({ provider: 'cloud-api', applies: true, open: false });
    expect(Math.abs(Date.parse(window.body.expiresAt) - (Date.now() - HOUR))).toBeLessThan(5 * 60_000);
  });

  it('is open for 24 h after the customer wrote, and a new customer message reopens it', async () => {
    const { ticketId, from } = await openTicket(new Date(Date.now() - 23 * HOUR));
    const window = await server.request('GET', `/api/tickets/${ticketId}/window`, { token: tenant.token });
    expect(window.body).toMatchObject({ applies: true, open: true });
    expect(Math.abs(Date.parse(window.body.expiresAt) - (Date.now() + HOUR))).toBeLessThan(5 * 60_000);
    expect((await sendText(ticketId, 'in time')).body.errorCode).toBeNull();
    const again = await graph.customerSends(line.number.phoneNumberId, from, {
      type: 'text',
      text: { body: 'oi de novo' },
    });
    await until(
      'stored',
      async () => (await storedByExternalId(server, line.connectionId, again.externalId)).length > 0,
    );
    const later = await server.request('GET', `/api/tickets/${ticketId}/window`, { token: tenant.token });
    expect(Date.parse(later.body.expiresAt)).toBeGreaterThan(Date.now() + 23 * HOUR);
  });

  it("follows the ticket's visibility: an agent of another queue may not read it", async () => {
    const { ticketId } = await openTicket();
    const queueId = await insertQueue(server, tenant.companyId);
    await server.database.executeSql('update tickets set queue_id = $1, user_id = null where id = $2', [
      queueId,
      ticketId,
    ]);
    const outsider = await createLoggedUser(server, tenant, { name: 'Other Queue Agent', queueIds: [] });
    const member = await createLoggedUser(server, tenant, { name: 'Queue Agent', queueIds: [queueId] });
    const refused = await server.request('GET', `/api/tickets/${ticketId}/window`, { token: outsider.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    const allowed = await server.request('GET', `/api/tickets/${ticketId}/window`, { token: member.token });
    expect(allowed.status).toBe(200);
    expect(allowed.body.open).toBe(true);
  });

  it('does not apply to other transports', async () => {
    const other = await server.createTenant('Sandbox');
    const { rows } = await server.database.executeSql(
      "insert into whatsapps (company_id, name, is_default, status, provider) values ($1, 'Sandbox line', true, 'CONNECTED', 'sandbox') returning id",
      [other.companyId],
    );
    const connectionId = (rows[0] as { id: number }).id;
    const contact = (
      await server.database.executeSql(
        "insert into contacts (company_id, name, number) values ($1, 'Old', '5511911112222') returning id",
        [other.companyId],
      )
    ).rows[0] as { id: number };
    const ticket = (
      await server.database.executeSql(
        "insert into tickets (company_id, contact_id, whatsapp_id, status) values ($1, $2, $3, 'open') returning id",
        [other.companyId, contact.id, connectionId],
      )
    ).rows[0] as { id: number };
    const window = await server.request('GET', `/api/tickets/${ticket.id}/window`, { token: other.token });
    expect(window.status).toBe(200);
    expect(window.body).toEqual({ provider: 'sandbox', applies: false, open: true, expiresAt: null });
  });
});
