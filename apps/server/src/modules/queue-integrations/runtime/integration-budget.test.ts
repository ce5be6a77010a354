process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../../test/harness';
import { connectSandbox } from '../../../../test/inbox';
import { createInboundHandlers } from '../../../inbound';
import { runDueDeliveries } from './deliveries';

/**
 * The integration budget (issue 20 item 9) on webhook deliveries: with one call at a time per company, a company
 * whose receiver is slow has its next delivery kept due (not sent, not lost) while another company's goes out;
 * the sweep sends the kept one once the first call ended. A real receiver on loopback holds the calls.
 */

let server: TTestServer;
let receiver: Server;
let receiverUrl = '';
/** the calls the receiver got, by the message they carry, and the answers it holds back */
const seen: string[] = [];
const held: ServerResponse[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push((JSON.parse(body) as { message: { body: string } }).message.body);
      held.push(res);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  // one integration call at a time per company
  server = await startTestServer({ env: { TENANT_BUDGET_INTEGRATIONS: '100,1,8' } });
  await server.database.executeSql('update plans set connections = 50, queues = 50, users = 50');
  server.ctx.channels.setEvents(createInboundHandlers(server.ctx));
});
afterAll(async () => {
  for (const res of held) res.end();
  await server?.close();
  await new Promise((r) => receiver.close(r));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (what: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 400; i++) {
    if (await what()) return;
    await sleep(25);
  }
  throw new Error('never happened');
};

/** a company whose sandbox connection hands every customer to a webhook integration */
const companyWithWebhook = async (name: string) => {
  const tenant = await server.createTenant(unique(name).slice(0, 30));
  const integration = await server.request('POST', '/api/queueIntegration', {
    token: tenant.token,
    body: { type: 'webhook', name: unique('Hook'), urlN8N: receiverUrl },
  });
  expect(integration.status).toBe(201);
  const conn = await connectSandbox(server, tenant.token, { integrationId: integration.body.id });
  const say = (from: string, body: string) =>
    server.request('POST', `/api/sandbox/${conn}/inbound`, {
      token: tenant.token,
      body: { from, name: 'Cliente', type: 'text', body },
    });

  return { tenant, integrationId: integration.body.id as number, say };
};
const deliveriesOf = async (integrationId: number) =>
  (
    await server.database.executeSql(
      'select status, attempts, payload from integration_deliveries where integration_id = $1 order by id',
      [integrationId],
    )
  ).rows as { status: string; attempts: number; payload: { message: { body: string } } }[];

describe('integration budget', () => {
  it("keeps a company's next delivery due while its slow call runs, and lets another company's go", async () => {
    const a = await companyWithWebhook('Slow');
    const b = await companyWithWebhook('Other');
    await a.say('5511900000001', 'a-primeira');
    await until(() => seen.includes('a-primeira'));
    // A's second delivery: stored, but A's one call is still held by the receiver
    await a.say('5511900000002', 'a-segunda');
    await until(async () => (await deliveriesOf(a.integrationId)).length === 2);
    // B's goes out at once
    await b.say('5511900000003', 'b-primeira');
    await until(() => seen.includes('b-primeira'));
    await sleep(100);
    expect(seen).toEqual(['a-primeira', 'b-primeira']);
    expect((await deliveriesOf(a.integrationId))[1]).toMatchObject({ status: 'pending', attempts: 0 });
    // A's call ends; the sweep sends the kept delivery, once
    for (const res of held.splice(0)) res.writeHead(200).end('{}');
    await until(async () => (await deliveriesOf(a.integrationId))[0]?.status === 'delivered');
    const sweep = runDueDeliveries(server.ctx);
    await until(() => seen.includes('a-segunda'));
    for (const res of held.splice(0)) res.writeHead(200).end('{}');
    await sweep;
    expect(seen).toEqual(['a-primeira', 'b-primeira', 'a-segunda']);
    expect((await deliveriesOf(a.integrationId)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });
});
