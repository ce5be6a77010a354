import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeWhatsApp, silentLog } from '../../../test/baileys-fake';
import { createLoggedUser } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { createAuthStateStore } from '../auth-state.repo';
import type { TChannelEvents, TConnectionState } from '../types';
import { createBaileysDriver } from './baileys.driver';
import { loadBaileysKit } from './baileys.loader';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('Baileys auth state in the database', () => {
  it('a session paired on one driver instance resumes on another (another node) without a QR code', async () => {
    const tenant = await server.createTenant();
    // a row no session of the server runs (inserted, never started): the sessions below are the drivers' own
    const { rows: made } = await server.database.executeSql(
      "insert into whatsapps (company_id, name, provider, status) values ($1, 'Baileys DB', 'baileys', 'DISCONNECTED') returning id",
      [tenant.companyId],
    );
    const connectionId = (made[0] as { id: number }).id;
    const whatsapp = createFakeWhatsApp({ qrIntervalMs: 50 });
    const node = () => {
      const states: TConnectionState[] = [];
      const events: TChannelEvents = {
        onState: async (s) => void states.push(s),
        onMessage: async () => undefined,
        onMessageUpdate: async () => undefined,
        onCall: async () => undefined,
      };
      const session = createBaileysDriver({
        store: createAuthStateStore(server.ctx.db),
        log: silentLog,
        loadKit: async () => whatsapp.kit(await loadBaileysKit()),
      })({ id: connectionId, companyId: tenant.companyId, provider: 'baileys' }, events);
      return { session, states, last: () => states.at(-1)?.status };
    };
    const a = node();
    await a.session.start();
    await until(() => a.last() === 'qrcode');
    await whatsapp.pair();
    await until(() => a.last() === 'CONNECTED');
    await a.session.stop();

    const rows = (
      await server.database.executeSql(
        'select key, value from channel_auth_state where connection_id = $1 order by key',
        [connectionId],
      )
    ).rows as { key: string; value: string }[];
    const creds = JSON.parse(rows.find((r) => r.key === 'creds')!.value);
    expect(creds.account).toBeTruthy();
    // Buffers are kept as BufferJSON
    expect(creds.noiseKey.private).toMatchObject({ type: 'Buffer' });

    const b = node();
    await b.session.start();
    await until(() => b.last() === 'CONNECTED');
    expect(b.states.map((s) => s.status)).not.toContain('qrcode');
    await b.session.logout();
    const left = await server.database.executeSql(
      'select count(*)::int as n from channel_auth_state where connection_id = $1',
      [connectionId],
    );
    expect((left.rows[0] as { n: number }).n).toBe(0);
  });
});

describe('corrupt Baileys auth state in the database', () => {
  it('unreadable credentials are cleared with the keys: DISCONNECTED, then a new QR; an unreadable key alone is dropped', async () => {
    const tenant = await server.createTenant();
    const { rows: made } = await server.database.executeSql(
      "insert into whatsapps (company_id, name, provider, status) values ($1, 'Baileys corrupt', 'baileys', 'CONNECTED') returning id",
      [tenant.companyId],
    );
    const connectionId = (made[0] as { id: number }).id;
    const store = createAuthStateStore(server.ctx.db);
    await store.set(connectionId, 'creds', '{"noiseKey":{"private":{"type":"Buffer","data":"AAA=');
    await store.set(connectionId, 'session:5511988887777.0', '{"_sessions":{}}');
    const whatsapp = createFakeWhatsApp({ qrIntervalMs: 50 });
    const states: TConnectionState[] = [];
    const session = createBaileysDriver({
      store,
      log: silentLog,
      loadKit: async () => whatsapp.kit(await loadBaileysKit()),
    })(
      { id: connectionId, companyId: tenant.companyId, provider: 'baileys' },
      {
        onState: async (s) => void states.push(s),
        onMessage: async () => undefined,
        onMessageUpdate: async () => undefined,
        onCall: async () => undefined,
      },
    );
    await session.start();
    expect(states.map((s) => s.status)).toEqual(['OPENING', 'DISCONNECTED']);
    const count = async () =>
      (
        (
          await server.database.executeSql(
            'select count(*)::int as n from channel_auth_state where connection_id = $1',
            [connectionId],
          )
        ).rows[0] as { n: number }
      ).n;
    expect(await count()).toBe(0);

    // pair again; then one key row goes bad: the session resumes without it
    await session.start();
    await until(() => states.at(-1)?.status === 'qrcode');
    await whatsapp.pair();
    await until(() => states.at(-1)?.status === 'CONNECTED');
    await session.stop();
    await store.set(connectionId, 'pre-key:7', 'not json');
    await store.set(connectionId, 'pre-key:8', JSON.stringify({ public: { type: 'Buffer', data: 'AQID' } }));
    const keys = await whatsapp.socket()!.auth.keys.get('pre-key', ['7', '8']);
    expect(Object.keys(keys)).toEqual(['8']);
    expect(Buffer.isBuffer((keys['8'] as { public: Buffer }).public)).toBe(true);
    const before = states.length;
    await session.start();
    await until(() => states.at(-1)?.status === 'CONNECTED');
    expect(states.slice(before).map((s) => s.status)).not.toContain('DISCONNECTED');
    await session.stop();
  });
});

describe('POST /api/whatsappsession/:id/pairing', () => {
  it('only for WhatsApp Web connections of the admin’s company, with a valid number; never a 500 when WhatsApp is unreachable', async () => {
    const tenant = await server.createTenant();
    const sandbox = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: 'Sim' } });
    const web = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      body: { name: 'Celular da loja', provider: 'baileys' },
    });
    expect(web.status).toBe(201);
    const pair = (id: number, phoneNumber: unknown) =>
      server.request('POST', `/api/whatsappsession/${id}/pairing`, { token: tenant.token, body: { phoneNumber } });
    expect((await pair(sandbox.body.id, '5511977776666')).body.error).toBe('ERR_CHANNEL_UNSUPPORTED');
    const invalid = await pair(web.body.id, '12');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('ERR_VALIDATION');
    expect((await pair(2_000_000_000, '5511977776666')).status).toBe(404);
    const user = await createLoggedUser(server, tenant);
    const asUser = await server.request('POST', `/api/whatsappsession/${web.body.id}/pairing`, {
      token: user.token,
      body: { phoneNumber: '5511977776666' },
    });
    expect(asUser.status).toBe(403);
    // this machine cannot reach WhatsApp: a catalogue error, and the server keeps serving
    const offline = await pair(web.body.id, '+55 11 97777-6666');
    expect(offline.status).toBeLessThan(500);
    expect(offline.body.error).toMatch(/^ERR_/);
    expect((await server.request('GET', '/api/whatsapp', { token: tenant.token })).status).toBe(200);
  });
});
