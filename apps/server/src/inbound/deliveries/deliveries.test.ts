process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_QR_MS = '5000';
process.env.SANDBOX_ACK_MS = '10';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeWhatsApp, silentLog } from '../../../test/baileys-fake';
import { countRows, type TTenant, unique } from '../../../test/fixtures';
import { openTestDatabase, startTestServer, type TTestServer } from '../../../test/harness';
import { createAuthStateStore } from '../../channels/auth-state.repo';
import { createBaileysDriver } from '../../channels/baileys/baileys.driver';
import { createWebhookInbox } from '../../channels/cloud-api/inbox';
import { loadBaileysKit } from '../../channels/baileys/baileys.loader';

/** Nothing accepted is lost (ARCHITECTURE §7.3): cleaning, the raw-delivery inbox, retries, dead letters. */

const FAST_RETRIES = { INBOUND_RETRY_MS: '20', INBOUND_POLL_MS: '30', INBOUND_MAX_ATTEMPTS: '3' };

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer({ env: FAST_RETRIES });
});
afterAll(() => server?.close());

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const connectedSandbox = async (s: TTestServer, tenant: TTenant) => {
  const res = await s.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: unique('Sandbox') } });
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  await until(() => s.ctx.channels.state(id)?.status === 'qrcode');
  expect((await s.request('POST', `/api/sandbox/${id}/scan`, { token: tenant.token, body: {} })).status).toBe(200);

  return id;
};

const inbound = (tenant: TTenant, id: number, body: Record<string, unknown>) =>
  server.request('POST', `/api/sandbox/${id}/inbound`, { token: tenant.token, body });

const messagesWithBody = (s: TTestServer, companyId: number, body: string) =>
  countRows(s, 'select count(*)::int as n from messages where company_id = $1 and body = $2', [companyId, body]);
const pendingDeliveries = (s: TTestServer, companyId: number) =>
  countRows(s, "select count(*)::int as n from inbound_deliveries where company_id = $1 and status = 'pending'", [
    companyId,
  ]);

describe('text from channels is cleaned before it is stored', () => {
  it('a customer message with NUL and a lone surrogate is stored, cleaned, with its ticket', async () => {
    const tenant = await server.createTenant();
    const id = await connectedSandbox(server, tenant);
    const res = await inbound(tenant, id, {
      from: '5511977770001',
      name: 'Jo\u0000ana\uD800',
      body: 'oi\u0000 tudo bem\uDC00?',
    });
    expect(res.status).toBe(200);
    await until(async () => (await messagesWithBody(server, tenant.companyId, 'oi tudo bem\uFFFD?')) === 1);
    const { rows } = await server.database.executeSql(
      `select t.status, c.name from tickets t join contacts c on c.id = t.contact_id
       where t.company_id = $1 and c.number = '5511977770001'`,
      [tenant.companyId],
    );
    expect(rows).toEqual([{ status: 'pending', name: 'Joana\uFFFD' }]);
    // processed: nothing left in the inbox (the delete joins the next group commit)
    await until(async () => (await pendingDeliveries(server, tenant.companyId)) === 0);
  });

  it('a quoted reply, a document name and a group subject with NUL are stored too (the one-by-one path)', async () => {
    const tenant = await server.createTenant();
    const id = await connectedSandbox(server, tenant);
    expect((await inbound(tenant, id, { from: '5511977770002', body: 'first', externalId: 'Q-1' })).status).toBe(200);
    const quoted = await inbound(tenant, id, {
      from: '5511977770002',
      body: 'answer\u0000',
      quotedExternalId: 'Q-1',
    });
    expect(quoted.status).toBe(200);
    const groups = await server.request('PUT', '/api/settings/CheckMsgIsGroup', {
      token: tenant.token,
      body: { value: 'disabled' },
    });
    expect(groups.status).toBe(200);
    const group = await inbound(tenant, id, {
      from: '5511977770003',
      name: 'Ana\u0000',
      body: 'no grupo\u0000',
      group: { id: '120363000000000001', name: 'Fam\u0000ília' },
    });
    expect(group.status).toBe(200);
    await until(async () => (await messagesWithBody(server, tenant.companyId, 'answer')) === 1);
    await until(async () => (await messagesWithBody(server, tenant.companyId, 'no grupo')) === 1);
    expect(
      await countRows(server, "select count(*)::int as n from contacts where company_id = $1 and name = 'Família'", [
        tenant.companyId,
      ]),
    ).toBe(1);
  });
});

describe('the sandbox inbound answers an error when it could not store', () => {
  it('a delivery the inbox refuses answers 503 ERR_INBOUND_NOT_STORED, and nothing half-made is left', async () => {
    const tenant = await server.createTenant();
    const id = await connectedSandbox(server, tenant);
    const marker = unique('refused');
    // a real database failure: the inbox's insert violates a constraint for this text
    await server.database.executeSql(
      `alter table inbound_deliveries add constraint test_refused check (payload not like '%${marker}%') not valid`,
    );
    try {
      const res = await inbound(tenant, id, { from: '5511977770004', body: marker });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('ERR_INBOUND_NOT_STORED');
    } finally {
      await server.database.executeSql('alter table inbound_deliveries drop constraint test_refused');
    }
    expect(await messagesWithBody(server, tenant.companyId, marker)).toBe(0);
    // sent again, it is stored
    expect((await inbound(tenant, id, { from: '5511977770004', body: marker })).status).toBe(200);
    await until(async () => (await messagesWithBody(server, tenant.companyId, marker)) === 1);
  });
});

describe('a delivery that keeps failing goes to the dead-letter list, and admins retry it', () => {
  it('is retried with backoff, then listed; retried from the API it makes the message exactly once', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const id = await connectedSandbox(server, a);
    const marker = unique('boom');
    // a real failure of the pipeline: storing this message violates a constraint
    await server.database.executeSql(
      `alter table messages add constraint test_boom check (body <> '${marker}') not valid`,
    );
    let dropped = false;
    try {
      const res = await inbound(a, id, { from: '5511977770005', name: 'Bia', body: marker, externalId: `X-${marker}` });
      // accepted: it is stored and will not be lost
      expect(res.status).toBe(200);
      let page: { failedDeliveries: Record<string, unknown>[]; count: number; hasMore: boolean } | undefined;
      await until(async () => {
        page = (await server.request('GET', '/api/failed-deliveries', { token: a.token })).body;
        return page!.count === 1;
      });
      expect(page!.hasMore).toBe(false);
      const failed = page!.failedDeliveries[0]!;
      expect(failed).toMatchObject({
        whatsappId: id,
        transport: 'sandbox',
        kind: 'message',
        attempts: 3,
        preview: `Bia · 5511977770005: ${marker}`,
      });
      expect(String(failed.lastError)).toMatch(/test_boom/);
      expect(await messagesWithBody(server, a.companyId, marker)).toBe(0);
      expect(await pendingDeliveries(server, a.companyId)).toBe(0);

      // company B sees nothing of it and can neither retry nor discard it
      const other = await server.request('GET', '/api/failed-deliveries', { token: b.token });
      expect(other.body).toEqual({ failedDeliveries: [], count: 0, hasMore: false });
      const foreignRetry = await server.request('POST', `/api/failed-deliveries/${failed.id}/retry`, {
        token: b.token,
      });
      expect(foreignRetry.status).toBe(404);
      expect(foreignRetry.body.error).toBe('ERR_NO_DELIVERY_FOUND');
      expect((await server.request('DELETE', `/api/failed-deliveries/${failed.id}`, { token: b.token })).status).toBe(
        404,
      );

      // the super user sees the count per company, never the rows
      const superUser = await server.superLogin();
      const counts = await server.request('GET', '/api/failed-deliveries/counts', { token: superUser.token });
      expect(counts.status).toBe(200);
      expect(counts.body.companies).toContainEqual(expect.objectContaining({ companyId: a.companyId, count: 1 }));
      expect(counts.body.companies.some((c: { companyId: number }) => c.companyId === b.companyId)).toBe(false);
      expect((await server.request('GET', '/api/failed-deliveries/counts', { token: a.token })).status).toBe(403);

      // a retry while the cause is still there fails again and stays listed
      const again = await server.request('POST', `/api/failed-deliveries/${failed.id}/retry`, { token: a.token });
      expect(again.status).toBe(200);
      expect(again.body.processed).toBe(false);
      expect(again.body.error).toMatch(/test_boom/);
      expect((await server.request('GET', '/api/failed-deliveries', { token: a.token })).body.count).toBe(1);

      await server.database.executeSql('alter table messages drop constraint test_boom');
      dropped = true;
      const retried = await server.request('POST', `/api/failed-deliveries/${failed.id}/retry`, { token: a.token });
      expect(retried.body).toEqual({ processed: true, error: null });
      expect(await messagesWithBody(server, a.companyId, marker)).toBe(1);
      expect((await server.request('GET', '/api/failed-deliveries', { token: a.token })).body.count).toBe(0);
      expect(
        (await server.request('POST', `/api/failed-deliveries/${failed.id}/retry`, { token: a.token })).status,
      ).toBe(404);
      // a replay of the same external id makes nothing twice
      expect((await inbound(a, id, { from: '5511977770005', body: marker, externalId: `X-${marker}` })).status).toBe(
        200,
      );
      await until(async () => (await pendingDeliveries(server, a.companyId)) === 0);
      expect(await messagesWithBody(server, a.companyId, marker)).toBe(1);
      expect(
        await countRows(
          server,
          `select count(*)::int as n from tickets t join contacts c on c.id = t.contact_id
           where t.company_id = $1 and c.number = '5511977770005'`,
          [a.companyId],
        ),
      ).toBe(1);
    } finally {
      if (!dropped) await server.database.executeSql('alter table messages drop constraint test_boom');
    }
  });

  it('only admins list, retry and discard; a discarded delivery is gone', async () => {
    const a = await server.createTenant();
    const id = await connectedSandbox(server, a);
    const { rows } = await server.database.executeSql(
      `insert into inbound_deliveries (company_id, whatsapp_id, transport, status, payload, attempts, last_error)
       values ($1, $2, 'sandbox', 'failed', '{"from":"5511977770006","body":"x"}', 3, 'broken') returning id`,
      [a.companyId, id],
    );
    const deliveryId = Number((rows[0] as { id: number | string }).id);
    const agent = await server.request('POST', '/api/users', {
      token: a.token,
      body: { name: 'Agent', email: `${unique('agent')}@example.com`, password: 'Agent-Pass-1', profile: 'user' },
    });
    expect(agent.status).toBe(201);
    const agentSession = await server.login(agent.body.email, 'Agent-Pass-1');
    expect((await server.request('GET', '/api/failed-deliveries', { token: agentSession.token })).status).toBe(403);
    expect(
      (await server.request('POST', `/api/failed-deliveries/${deliveryId}/retry`, { token: agentSession.token }))
        .status,
    ).toBe(403);
    expect((await server.request('DELETE', `/api/failed-deliveries/${deliveryId}`, { token: a.token })).status).toBe(
      204,
    );
    expect((await server.request('GET', '/api/failed-deliveries', { token: a.token })).body.count).toBe(0);
  });
});

describe('a Cloud API webhook its session could not hand over', () => {
  it('is listed as a failed delivery, and its retry puts it back in the webhook inbox', async () => {
    const tenant = await server.createTenant();
    const { rows } = await server.database.executeSql(
      "insert into whatsapps (company_id, name, provider, status) values ($1, 'Cloud', 'cloud-api', 'DISCONNECTED') returning id",
      [tenant.companyId],
    );
    const connectionId = (rows[0] as { id: number }).id;
    const body = '{"object":"whatsapp_business_account","entry":[';
    await createWebhookInbox(server.ctx.db).deadLetter(connectionId, { payload: body, attempts: 5 }, 'not JSON');
    const page = await server.request('GET', '/api/failed-deliveries', { token: tenant.token });
    expect(page.body.failedDeliveries).toEqual([
      expect.objectContaining({
        whatsappId: connectionId,
        transport: 'cloud-api',
        kind: 'webhook',
        lastError: 'not JSON',
      }),
    ]);
    const id = page.body.failedDeliveries[0].id;
    const retried = await server.request('POST', `/api/failed-deliveries/${id}/retry`, { token: tenant.token });
    expect(retried.body).toEqual({ processed: true, error: null });
    const { rows: waiting } = await server.database.executeSql(
      'select payload from cloud_api_inbox where whatsapp_id = $1',
      [connectionId],
    );
    expect(waiting).toEqual([{ payload: body }]);
    expect((await server.request('GET', '/api/failed-deliveries', { token: tenant.token })).body.count).toBe(0);
  });
});

describe('WhatsApp Web deliveries survive a restart', () => {
  it('a Baileys message stored before the server stopped is processed by the next start', async () => {
    const database = await openTestDatabase();
    // the first process fails to store messages (a constraint) and never polls again: the row stays
    const first = await startTestServer({
      database,
      env: { INBOUND_RETRY_MS: '1', INBOUND_POLL_MS: '600000', INBOUND_MAX_ATTEMPTS: '5' },
    });
    const tenant = await first.createTenant();
    const { rows } = await database.executeSql(
      "insert into whatsapps (company_id, name, provider, status) values ($1, 'Baileys', 'baileys', 'DISCONNECTED') returning id",
      [tenant.companyId],
    );
    const connectionId = (rows[0] as { id: number }).id;
    await database.executeSql("alter table messages add constraint test_later check (body <> 'guardado') not valid");
    const whatsapp = createFakeWhatsApp({ qrIntervalMs: 50 });
    const deliveries = first.ctx.deliveries!;
    let status = '';
    const session = createBaileysDriver({
      store: createAuthStateStore(first.ctx.db),
      log: silentLog,
      loadKit: async () => whatsapp.kit(await loadBaileysKit()),
    })(
      { id: connectionId, companyId: tenant.companyId, provider: 'baileys' },
      {
        onState: async (s) => {
          status = s.status;
        },
        onMessage: deliveries.onMessage,
        onMessageUpdate: deliveries.onMessageUpdate,
        onCall: deliveries.onCall,
      },
    );
    let second: TTestServer | undefined;
    try {
      await session.start();
      await until(() => status === 'qrcode');
      await whatsapp.pair();
      await until(() => status === 'CONNECTED');
      whatsapp.customerSends({
        key: { remoteJid: '5511977770007@s.whatsapp.net', fromMe: false, id: 'WA-RESTART-1' },
        message: { conversation: 'guardado' },
        pushName: 'Caio',
        messageTimestamp: 1_700_000_000,
      });
      await until(
        async () =>
          (await countRows(
            first,
            'select count(*)::int as n from inbound_deliveries where whatsapp_id = $1 and attempts = 1',
            [connectionId],
          )) === 1,
      );
      await session.stop();
      await first.close();
      expect(await messagesWithBody(first, tenant.companyId, 'guardado')).toBe(0);
      await database.executeSql('alter table messages drop constraint test_later');

      second = await startTestServer({ database, env: FAST_RETRIES });
      const s = second;
      await until(async () => (await messagesWithBody(s, tenant.companyId, 'guardado')) === 1);
      await until(async () => (await pendingDeliveries(s, tenant.companyId)) === 0);
      const { rows: stored } = await database.executeSql(
        "select m.external_id, c.name from messages m join contacts c on c.id = m.contact_id where m.body = 'guardado'",
      );
      expect(stored).toEqual([{ external_id: 'WA-RESTART-1', name: 'Caio' }]);
    } finally {
      await session.stop().catch(() => undefined);
      await second?.close();
      await database.close();
    }
  });
});
