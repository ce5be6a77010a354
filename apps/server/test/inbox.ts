import { randomBytes } from 'node:crypto';
import type { TInboundMessage } from '../src/channels/types';
import { storeInboundMessage } from '../src/modules/messages/store-inbound';
import { createLoggedUser, insertQueue, type TTenant, unique } from './fixtures';
import type { TTestServer } from './harness';

/** rows and deliveries the inbox tests share */

export const randomNumber = () => `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

export const insertContact = async (
  server: TTestServer,
  companyId: number,
  fields: { name?: string; number?: string } = {},
) => {
  const { rows } = await server.database.executeSql(
    'insert into contacts (company_id, name, number) values ($1, $2, $3) returning id, number, name',
    [companyId, fields.name ?? unique('Contact'), fields.number ?? randomNumber()],
  );

  return rows[0] as { id: number; number: string; name: string };
};

export const insertDefaultConnection = async (
  server: TTestServer,
  companyId: number,
  fields: Record<string, string> = {},
) => {
  const cols = ['company_id', 'name', 'is_default', 'status', ...Object.keys(fields)];
  const values = [companyId, unique('Conn'), true, 'CONNECTED', ...Object.values(fields)];
  const { rows } = await server.database.executeSql(
    `insert into whatsapps (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    values,
  );

  const id = (rows[0] as { id: number }).id;
  // CONNECTED with no lease is an orphan to a PostgreSQL node's registry: it would take the row over and
  // move it through OPENING → qrcode (each status change announced to the company, dropping its kept
  // answers) while the test runs. The fixture's connection is held by a node that never goes stale; the
  // test's sessions are the fake transport's (channel-fake.ts), not the registry's.
  await server.database.executeSql(
    `insert into channel_leases (connection_id, node_id, heartbeat_at) values ($1, 'test-fixture', 'infinity')`,
    [id],
  );

  return id;
};

export const setSetting = async (server: TTestServer, tenant: TTenant, key: string, value: string) => {
  const res = await server.request('PUT', `/api/settings/${key}`, { token: tenant.token, body: { value } });
  if (res.status !== 200) throw new Error(`setting ${key}: ${res.status}`);
};

/** a customer message as the channel layer delivers it */
export const inbound = (
  connectionId: number,
  from: string,
  fields: Partial<TInboundMessage> = {},
): TInboundMessage => ({
  connectionId,
  externalId: `in-${randomBytes(6).toString('hex')}`,
  from,
  fromMe: false,
  pushName: 'Customer',
  isGroup: false,
  type: 'text',
  body: 'hello',
  timestamp: new Date(),
  ...fields,
});

export const deliver = (server: TTestServer, message: TInboundMessage) => storeInboundMessage(server.ctx, message);

/** a pending ticket made by a customer message, optionally placed in a queue */
export const pendingTicket = async (
  server: TTestServer,
  tenant: TTenant,
  connectionId: number,
  opts: { queueId?: number | null; body?: string; name?: string } = {},
) => {
  const contact = await insertContact(server, tenant.companyId, { name: opts.name });
  const stored = await deliver(server, inbound(connectionId, contact.number, { body: opts.body ?? 'hello' }));
  if (!stored) throw new Error('not stored');
  if (opts.queueId) {
    await server.database.executeSql('update tickets set queue_id = $1 where id = $2', [
      opts.queueId,
      stored.ticket.id,
    ]);
  }

  return { ticketId: stored.ticket.id, contact };
};

/** an inbox: a connected default connection, two queues and agents of each */
export const setupInbox = async (server: TTestServer, label = 'Inbox') => {
  const tenant = await server.createTenant(label);
  const connectionId = await insertDefaultConnection(server, tenant.companyId);
  const q1 = await insertQueue(server, tenant.companyId);
  const q2 = await insertQueue(server, tenant.companyId);
  const agent1 = await createLoggedUser(server, tenant, { name: 'Agent One', queueIds: [q1] });
  const agent2 = await createLoggedUser(server, tenant, { name: 'Agent Two', queueIds: [q1] });
  const agentQ2 = await createLoggedUser(server, tenant, { name: 'Agent Queue Two', queueIds: [q2] });

  return { tenant, connectionId, q1, q2, agent1, agent2, agentQ2 };
};

/** a sandbox connection made through the API, paired with the simulator's scan and CONNECTED */
export const connectSandbox = async (server: TTestServer, token: string, fields: Record<string, unknown> = {}) => {
  const created = await server.request('POST', '/api/whatsapp', { token, body: { name: unique('Conn'), ...fields } });
  if (created.status !== 201) throw new Error(`connection: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as number;
  const pause = () => new Promise((r) => setTimeout(r, 20));
  // a deadline, not a count of tries: a loaded CI machine (two suites' servers on two cores) takes longer
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if ((await server.request('POST', `/api/sandbox/${id}/scan`, { token, body: {} })).status === 200) break;
    await pause();
  }
  while (Date.now() < deadline) {
    const { rows } = await server.database.executeSql('select status from whatsapps where id = $1', [id]);
    if ((rows[0] as { status?: string } | undefined)?.status === 'CONNECTED') return id;
    await pause();
  }
  throw new Error('the sandbox connection did not connect');
};
