import { events, rooms } from '@zelo/shared';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from './harness';

let server: TTestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server.close();
});

const connect = (token: string | undefined, transport: 'websocket' | 'polling' = 'websocket') => {
  const socket = io(server.url, { auth: token ? { token } : {}, transports: [transport], reconnection: false });
  sockets.push(socket);

  return socket;
};
const ready = (socket: Socket) => new Promise<void>((resolve) => socket.once('ready', () => resolve()));
const refusal = (socket: Socket) =>
  new Promise<{ message: string; data?: { error: string } }>((resolve) =>
    socket.once('connect_error', resolve as never),
  );
const nothingWithin = (socket: Socket, event: string, ms = 300) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(true), ms);
    socket.once(event, () => {
      clearTimeout(timer);
      resolve(false);
    });
  });

describe('socket authentication', () => {
  it('refuses a socket without a token or with a bad one', async () => {
    expect((await refusal(connect(undefined))).data).toEqual({ error: 'ERR_NOT_AUTHENTICATED' });
    expect((await refusal(connect('not.a.token'))).data).toEqual({ error: 'ERR_NOT_AUTHENTICATED' });
  });

  it('emits ready once authenticated, over websocket and long-polling', async () => {
    const tenant = await server.createTenant();
    await ready(connect(tenant.token, 'websocket'));
    await ready(connect(tenant.token, 'polling'));
  });

  it('refuses the token of a session that logged out', async () => {
    const tenant = await server.createTenant();
    await server.request('DELETE', '/api/auth/logout', { token: tenant.token });
    expect((await refusal(connect(tenant.token))).data).toEqual({ error: 'ERR_SESSION_REVOKED' });
  });
});

describe('rooms', () => {
  it('joinNotification puts an admin in the company notification room, never another company', async () => {
    const a = await server.createTenant('A');
    const b = await server.createTenant('B');
    const sa = connect(a.token);
    const sb = connect(b.token);
    await Promise.all([ready(sa), ready(sb)]);
    sa.emit('joinNotification');
    sb.emit('joinNotification');
    await new Promise((r) => setTimeout(r, 100));
    const heard = new Promise((resolve) => sa.once('probe', resolve));
    const silentB = nothingWithin(sb, 'probe');
    server.ctx.realtime.to(rooms.notification(a.companyId), 'probe', { n: 1 });
    expect(await heard).toEqual({ n: 1 });
    expect(await silentB).toBe(true);
  });

  it('a plain user joins neither the admins room nor the notification room of its company', async () => {
    const a = await server.createTenant('A');
    const created = await server.request('POST', '/api/users', {
      token: a.token,
      body: { name: 'Agent', email: `agent-${a.companyId}@example.com`, password: 'agent1', profile: 'user' },
    });
    expect(created.status).toBe(201);
    const agent = await server.login(`agent-${a.companyId}@example.com`, 'agent1');
    const socket = connect(agent.token);
    await ready(socket);
    socket.emit('joinNotification');
    socket.emit('joinTickets', 'open');
    await new Promise((r) => setTimeout(r, 100));
    const silent = nothingWithin(socket, 'probe');
    server.ctx.realtime.to(
      [rooms.admins(a.companyId), rooms.notification(a.companyId), rooms.status(a.companyId, 'open')],
      'probe',
      {},
    );
    expect(await silent).toBe(true);
  });

  it('logout disconnects the sockets of that session', async () => {
    const tenant = await server.createTenant();
    const socket = connect(tenant.token);
    await ready(socket);
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await server.request('DELETE', '/api/auth/logout', { token: tenant.token });
    expect(await gone).toBe('io server disconnect');
  });

  it('announces changes only after they are stored', async () => {
    const tenant = await server.createTenant();
    const socket = connect(tenant.token);
    await ready(socket);
    const event = new Promise<{ setting: { key: string; value: string } }>((resolve) =>
      socket.once(events.settings(tenant.companyId), resolve),
    );
    await server.request('PUT', '/api/settings/userRating', { token: tenant.token, body: { value: 'enabled' } });
    const { setting } = await event;
    const { rows } = await server.database.executeSql('select value from settings where company_id = $1 and key = $2', [
      tenant.companyId,
      setting.key,
    ]);
    expect(rows).toEqual([{ value: 'enabled' }]);
  });
});
