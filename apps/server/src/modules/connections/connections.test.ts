process.env.SANDBOX_OPENING_MS = '20';
process.env.SANDBOX_QR_MS = '1000';
process.env.SANDBOX_QR_COUNT = '3';
process.env.SANDBOX_ACK_MS = '10';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createLoggedUser,
  createPlan,
  insertQueue,
  openSocket,
  recordEvents,
  type TTenant,
  unique,
} from '../../../test/fixtures';
import { openTestDatabase, startTestServer, type TTestServer } from '../../../test/harness';
import { createConnectionStateHandler } from './connection-state';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const create = async (s: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const res = await s.request('POST', '/api/whatsapp', {
    token: tenant.token,
    body: { name: unique('Conn'), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; name: string; isDefault: boolean; token: string | null };
};

const read = async (s: TTestServer, tenant: TTenant, id: number) =>
  (await s.request('GET', `/api/whatsapp/${id}`, { token: tenant.token })).body;

const waitStatus = async (s: TTestServer, tenant: TTenant, id: number, status: string, timeoutMs = 8000) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const row = await read(s, tenant, id);
    if (row.status === status) return row;
    if (Date.now() > end) throw new Error(`connection ${id} is ${row.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const scan = (s: TTestServer, tenant: TTenant, id: number, body: Record<string, unknown> = {}) =>
  s.request('POST', `/api/sandbox/${id}/scan`, { token: tenant.token, body });

describe('connection lifecycle through the sandbox', () => {
  it('OPENING → qrcode → scan → CONNECTED, with whatsappSession events', async () => {
    const tenant = await server.createTenant();
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    try {
      const conn = await create(server, tenant);
      const qr = await waitStatus(server, tenant, conn.id, 'qrcode');
      expect(qr.qrcode).toMatch(/^2@/);
      expect(qr.retries).toBe(0);
      // a code that is not the one on screen is refused
      expect((await scan(server, tenant, conn.id, { qrcode: 'stale' })).status).toBe(409);
      // the code rotates every second here: on a loaded machine it may change between read and scan
      let scanned = { status: 0, body: undefined as unknown };
      for (let attempt = 0; attempt < 3 && scanned.status !== 200; attempt++) {
        const current = await read(server, tenant, conn.id);
        scanned = await scan(server, tenant, conn.id, { qrcode: current.qrcode, phoneNumber: '5511912345678' });
      }
      expect(scanned.status, JSON.stringify(scanned.body)).toBe(200);
      expect(scanned.body).toEqual({ status: 'CONNECTED', phoneNumber: '5511912345678' });
      const event = `company-${tenant.companyId}-whatsappSession`;
      await heard.waitFor(event, (p) => p.session.id === conn.id && p.session.status === 'qrcode');
      const opening = heard.heard.find((h) => h.event === event && (h.payload as any).session.status === 'OPENING');
      expect(opening?.payload).toMatchObject({ action: 'update', session: { id: conn.id, qrcode: '' } });
      const connected = await waitStatus(server, tenant, conn.id, 'CONNECTED');
      expect(connected).toMatchObject({ qrcode: '', retries: 0, phoneNumber: '5511912345678' });
      const update = await heard.waitFor(event, (p) => p.session.status === 'CONNECTED');
      expect(update.session.qrcode).toBe('');
      expect(typeof update.session.updatedAt).toBe('string');
      expect(
        await countRows(server, 'select count(*) n from channel_auth_state where connection_id = $1', [conn.id]),
      ).toBe(1);
    } finally {
      socket.disconnect();
    }
  });

  it('three unscanned QR codes end in TIMEOUT; try again shows a new QR', async () => {
    const tenant = await server.createTenant();
    const conn = await create(server, tenant);
    const timedOut = await waitStatus(server, tenant, conn.id, 'TIMEOUT');
    expect(timedOut).toMatchObject({ qrcode: '', retries: 3 });
    expect((await scan(server, tenant, conn.id)).status).toBe(409);
    const retry = await server.request('POST', `/api/whatsappsession/${conn.id}`, { token: tenant.token });
    expect(retry.status).toBe(200);
    expect((await waitStatus(server, tenant, conn.id, 'qrcode')).retries).toBe(0);
  });

  it('the reason a session fails is stored, read and announced with it, and cleared once it is reached', async () => {
    const tenant = await server.createTenant();
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    try {
      const conn = await create(server, tenant);
      // TIMEOUT: the sandbox reports nothing more, so the states below are the only ones
      expect(await waitStatus(server, tenant, conn.id, 'TIMEOUT')).toMatchObject({ lastError: null });
      const onState = createConnectionStateHandler(server.ctx);
      await onState({ connectionId: conn.id, status: 'DISCONNECTED', retries: 5, error: 'unreachable' });
      expect(await read(server, tenant, conn.id)).toMatchObject({ status: 'DISCONNECTED', lastError: 'unreachable' });
      const event = `company-${tenant.companyId}-whatsappSession`;
      const announced = await heard.waitFor(event, (p) => p.session.status === 'DISCONNECTED');
      expect(announced.session).toMatchObject({ id: conn.id, lastError: 'unreachable' });
      const list = await server.request('GET', '/api/whatsapp', { token: tenant.token });
      expect(list.body.find((c: { id: number }) => c.id === conn.id)).toMatchObject({ lastError: 'unreachable' });
      await onState({ connectionId: conn.id, status: 'qrcode', qrcode: '2@x' });
      expect(await read(server, tenant, conn.id)).toMatchObject({ status: 'qrcode', lastError: null });
    } finally {
      socket.disconnect();
    }
  });

  it('new QR clears the pairing; disconnect logs out and refuses simulated traffic', async () => {
    const tenant = await server.createTenant();
    const conn = await create(server, tenant);
    await waitStatus(server, tenant, conn.id, 'qrcode');
    expect((await scan(server, tenant, conn.id)).status).toBe(200);
    await waitStatus(server, tenant, conn.id, 'CONNECTED');

    expect((await server.request('PUT', `/api/whatsappsession/${conn.id}`, { token: tenant.token })).status).toBe(200);
    await waitStatus(server, tenant, conn.id, 'qrcode');
    expect(
      await countRows(server, 'select count(*) n from channel_auth_state where connection_id = $1', [conn.id]),
    ).toBe(0);
    expect((await scan(server, tenant, conn.id)).status).toBe(200);
    await waitStatus(server, tenant, conn.id, 'CONNECTED');

    const off = await server.request('DELETE', `/api/whatsappsession/${conn.id}`, { token: tenant.token });
    expect(off.status).toBe(200);
    const row = await waitStatus(server, tenant, conn.id, 'DISCONNECTED');
    expect(row.qrcode).toBe('');
    expect(
      await countRows(server, 'select count(*) n from channel_auth_state where connection_id = $1', [conn.id]),
    ).toBe(0);
    expect(() => server.ctx.channels.session(conn.id)).toThrow(
      expect.objectContaining({ code: 'ERR_WAPP_NOT_INITIALIZED' }),
    );
    const inbound = await server.request('POST', `/api/sandbox/${conn.id}/inbound`, {
      token: tenant.token,
      body: { from: '5511988887777', body: 'anyone?' },
    });
    expect(inbound.status).toBe(409);
    expect(inbound.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });

  it('a paired connection comes back CONNECTED when another server starts on the same database', async () => {
    const database = await openTestDatabase();
    const first = await startTestServer({ database });
    let second: TTestServer | undefined;
    try {
      const tenant = await first.createTenant();
      const paired = await create(first, tenant);
      const waiting = await create(first, tenant);
      await waitStatus(first, tenant, paired.id, 'qrcode');
      expect((await scan(first, tenant, paired.id)).status).toBe(200);
      await waitStatus(first, tenant, paired.id, 'CONNECTED');
      await waitStatus(first, tenant, waiting.id, 'qrcode');
      await first.close();

      second = await startTestServer({ database });
      await second.ctx.channels.startAll();
      const login = await second.login(tenant.email, tenant.password);
      const again = { ...tenant, token: login.token };
      await waitStatus(second, again, paired.id, 'CONNECTED');
      expect(() => second!.ctx.channels.session(paired.id)).not.toThrow();
      // the unpaired one asks for a QR again
      await waitStatus(second, again, waiting.id, 'qrcode');
    } finally {
      await second?.close();
      await database.close();
    }
  });
});

describe('connection rules', () => {
  it('the first connection is the default; setting another default unsets it; the only default can not be unset', async () => {
    const tenant = await server.createTenant();
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    try {
      const first = await create(server, tenant, { isDefault: false });
      expect(first.isDefault).toBe(true);
      const second = await create(server, tenant);
      expect(second.isDefault).toBe(false);

      const unset = await server.request('PUT', `/api/whatsapp/${first.id}`, {
        token: tenant.token,
        body: { isDefault: false },
      });
      expect(unset.status).toBe(400);
      expect(unset.body.error).toBe('ERR_NO_OTHER_WHATSAPP');

      const moved = await server.request('PUT', `/api/whatsapp/${second.id}`, {
        token: tenant.token,
        body: { isDefault: true },
      });
      expect(moved.status).toBe(200);
      expect(moved.body.isDefault).toBe(true);
      expect((await read(server, tenant, first.id)).isDefault).toBe(false);
      await heard.waitFor(
        `company-${tenant.companyId}-whatsapp`,
        (p) => p.action === 'update' && p.whatsapp.id === first.id && p.whatsapp.isDefault === false,
      );

      // deleting the default hands the flag to another connection
      expect((await server.request('DELETE', `/api/whatsapp/${second.id}`, { token: tenant.token })).status).toBe(204);
      expect((await read(server, tenant, first.id)).isDefault).toBe(true);
      await heard.waitFor(
        `company-${tenant.companyId}-whatsapp`,
        (p) => p.action === 'delete' && p.whatsappId === second.id,
      );
      expect((await server.request('GET', `/api/whatsapp/${second.id}`, { token: tenant.token })).status).toBe(404);
    } finally {
      socket.disconnect();
    }
  });

  it('a greeting is required with more than one queue; queues and references must be the company’s own', async () => {
    const tenant = await server.createTenant();
    const other = await server.createTenant();
    const [q1, q2] = [await insertQueue(server, tenant.companyId), await insertQueue(server, tenant.companyId)];
    const foreign = await insertQueue(server, other.companyId);

    const noGreeting = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      body: { name: 'Two queues', queueIds: [q1, q2] },
    });
    expect(noGreeting.status).toBe(400);
    expect(noGreeting.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const ok = await create(server, tenant, { queueIds: [q1, q2], greetingMessage: 'Hello! Pick one:' });
    const shown = await read(server, tenant, ok.id);
    expect(shown.queueIds.sort()).toEqual([q1, q2].sort());
    expect(shown.queues[0]).toHaveProperty('color');

    const clearGreeting = await server.request('PUT', `/api/whatsapp/${ok.id}`, {
      token: tenant.token,
      body: { greetingMessage: '  ' },
    });
    expect(clearGreeting.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const single = await server.request('PUT', `/api/whatsapp/${ok.id}`, {
      token: tenant.token,
      body: { greetingMessage: '', queueIds: [q1] },
    });
    expect(single.status).toBe(200);
    expect(single.body.queueIds).toEqual([q1]);

    // another company's row or none: the table's not-found code, naming the field
    for (const [body, error] of [
      [{ queueIds: [foreign] }, 'ERR_NO_QUEUE_FOUND'],
      [{ transferQueueId: foreign }, 'ERR_NO_QUEUE_FOUND'],
      [{ promptId: 2_000_000_000 }, 'ERR_NO_PROMPT_FOUND'],
      [{ integrationId: 2_000_000_000 }, 'ERR_NO_INTEGRATION_FOUND'],
    ] as const) {
      const res = await server.request('POST', '/api/whatsapp', {
        token: tenant.token,
        body: { name: unique('Bad'), ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body).toMatchObject({ error, details: [{ path: Object.keys(body)[0] }] });
    }
  });

  it('validates names (2 to 50, unique per company, case-insensitive) and keeps them per company', async () => {
    const tenant = await server.createTenant();
    const other = await server.createTenant();
    for (const name of ['a', 'x'.repeat(51), '']) {
      const res = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    await create(server, tenant, { name: 'Support' });
    const dup = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: 'SUPPORT' } });
    expect(dup.status).toBe(409);
    expect(dup.body.details).toEqual([{ path: 'name', message: 'duplicated' }]);
    await create(server, other, { name: 'Support' });
    const bad = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      body: { name: 'Ok name', maxUseBotQueues: -1 },
    });
    expect(bad.status).toBe(400);
    expect((await server.request('GET', '/api/whatsapp/abc', { token: tenant.token })).status).toBe(400);
  });

  it("the plan's connection limit is enforced", async () => {
    const tenant = await server.createTenant();
    const superUser = await server.superLogin();
    const plan = await createPlan(server, superUser.token, { connections: 1 });
    expect(
      (
        await server.request('PUT', `/api/companies/${tenant.companyId}`, {
          token: superUser.token,
          body: { planId: plan.id },
        })
      ).status,
    ).toBe(200);
    await create(server, tenant);
    const over = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: 'One too many' } });
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('ERR_PLAN_LIMIT_CONNECTIONS');
  });

  it('users list and read connections; only admins change them; tokens are masked except in the admin editor', async () => {
    const tenant = await server.createTenant();
    const secret = 'Secret-Connection-Token-9f8e7d6c5b4a3-wxyz';
    const conn = await create(server, tenant, { token: secret });
    expect(conn.token).toBe(secret);
    const user = await createLoggedUser(server, tenant);
    const list = await server.request('GET', '/api/whatsapp', { token: user.token, query: { session: 0 } });
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: number }) => c.id)).toContain(conn.id);
    expect(JSON.stringify(list.body)).not.toContain('Secret-Connection-Token');
    expect(list.body[0].token).toBe('********wxyz');
    const asUser = await server.request('GET', `/api/whatsapp/${conn.id}`, {
      token: user.token,
      query: { session: 0 },
    });
    expect(asUser.body.token).toBe('********wxyz');
    const editor = await server.request('GET', `/api/whatsapp/${conn.id}`, {
      token: tenant.token,
      query: { session: 0 },
    });
    expect(editor.body.token).toBe(secret);

    // the masked value sent back keeps the token
    const same = await server.request('PUT', `/api/whatsapp/${conn.id}`, {
      token: tenant.token,
      body: { token: '********wxyz', name: 'Renamed' },
    });
    expect(same.body).toMatchObject({ token: secret, name: 'Renamed' });
    // another company naming the token learns nothing: the answer of a weak token, never "in use"
    const other = await server.createTenant();
    const clash = await server.request('POST', '/api/whatsapp', {
      token: other.token,
      body: { name: 'Clash', token: secret },
    });
    expect(clash).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_TOKEN_WEAK' } });

    for (const [method, path] of [
      ['POST', '/api/whatsapp'],
      ['PUT', `/api/whatsapp/${conn.id}`],
      ['DELETE', `/api/whatsapp/${conn.id}`],
      ['POST', `/api/whatsappsession/${conn.id}`],
      ['PUT', `/api/whatsappsession/${conn.id}`],
      ['DELETE', `/api/whatsappsession/${conn.id}`],
    ]) {
      const res = await server.request(method, path, { token: user.token, body: { name: 'By a user' } });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await server.request('GET', '/api/whatsapp')).status).toBe(401);
  });

  it('deleting a connection closes its open and pending tickets and stops its session', async () => {
    const tenant = await server.createTenant();
    const keep = await create(server, tenant);
    const conn = await create(server, tenant);
    await waitStatus(server, tenant, conn.id, 'qrcode');
    for (const [i, status] of ['open', 'pending', 'closed'].entries()) {
      const { rows } = await server.database.executeSql(
        'insert into contacts (company_id, name, number) values ($1, $2, $3) returning id',
        [tenant.companyId, `Customer ${i}`, `551198888777${i}`],
      );
      const { rows: made } = await server.database.executeSql(
        'insert into tickets (company_id, contact_id, whatsapp_id, status) values ($1, $2, $3, $4) returning id',
        [tenant.companyId, (rows[0] as { id: number }).id, status === 'closed' ? keep.id : conn.id, status],
      );
      // each in an attendance cycle still running
      await server.database.executeSql(
        'insert into ticket_trackings (company_id, ticket_id, whatsapp_id) values ($1, $2, $3)',
        [tenant.companyId, (made[0] as { id: number }).id, status === 'closed' ? keep.id : conn.id],
      );
    }
    expect((await server.request('DELETE', `/api/whatsapp/${conn.id}`, { token: tenant.token })).status).toBe(204);
    // the cycles of the closed tickets ended with them; the other connection's ticket was not touched
    expect(
      await countRows(
        server,
        'select count(*) n from ticket_trackings tr join tickets t on t.id = tr.ticket_id where t.company_id = $1 and tr.finished_at is null',
        [tenant.companyId],
      ),
    ).toBe(1);
    expect(server.ctx.channels.local(conn.id)).toBeUndefined();
    expect(
      await countRows(server, "select count(*) n from tickets where company_id = $1 and status <> 'closed'", [
        tenant.companyId,
      ]),
    ).toBe(0);
    expect(
      await countRows(server, 'select count(*) n from tickets where company_id = $1 and whatsapp_id is null', [
        tenant.companyId,
      ]),
    ).toBe(2);
    expect(await countRows(server, 'select count(*) n from channel_leases where connection_id = $1', [conn.id])).toBe(
      0,
    );
    expect((await server.request('DELETE', `/api/whatsapp/${conn.id}`, { token: tenant.token })).status).toBe(404);
  });
});
