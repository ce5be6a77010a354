import { randomBytes, randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { TTestServer } from './harness';

/** Shared fixtures of the module tests: users, plans, rows inserted directly, sockets. */

export type TTenant = Awaited<ReturnType<TTestServer['createTenant']>>;

export const unique = (label = 'x') => `${label}-${randomBytes(4).toString('hex')}`;

/** a plan of its own for a test, priced high so it never becomes the sign-up default (`/plans/list` sorts by value) */
export const createPlan = async (server: TTestServer, superToken: string, fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/plans', {
    token: superToken,
    body: { name: unique('Plan'), users: 10, connections: 10, queues: 10, value: 999, ...fields },
  });
  expect(res.status).toBe(201);

  return res.body as { id: number; name: string; users: number; connections: number; queues: number; value: number };
};

/** moves the tenant's company to a dedicated plan with this user limit */
export const limitUsers = async (server: TTestServer, superToken: string, companyId: number, users: number) => {
  const plan = await createPlan(server, superToken, { users });
  const moved = await server.request('PUT', `/api/companies/${companyId}`, {
    token: superToken,
    body: { planId: plan.id },
  });
  expect(moved.status).toBe(200);

  return plan;
};

/** a user created by the tenant's admin through the API */
export const createUser = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const email = `${unique('user')}@example.com`;
  const res = await server.request('POST', '/api/users', {
    token: tenant.token,
    body: { name: 'Some User', email, password: 'User-Pass-1', ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return { ...res.body, password: (fields.password as string) ?? 'User-Pass-1' } as {
    id: number;
    email: string;
    name: string;
    profile: string;
    password: string;
  };
};

/** a user created and logged in (a login ends the user's other sessions) */
export const createLoggedUser = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const user = await createUser(server, tenant, fields);
  const session = await server.login(user.email, user.password);

  return { ...user, token: session.token };
};

/** rows the foundation has no routes for yet (queues, connections), written straight to the database */
export const insertQueue = async (server: TTestServer, companyId: number) => {
  const { rows } = await server.database.executeSql(
    'insert into queues (company_id, name, color) values ($1, $2, $3) returning id',
    [companyId, unique('Queue'), '#123456'],
  );

  return (rows[0] as { id: number }).id;
};

export const insertConnection = async (server: TTestServer, companyId: number) => {
  const { rows } = await server.database.executeSql(
    'insert into whatsapps (company_id, name) values ($1, $2) returning id',
    [companyId, unique('Conn')],
  );

  return (rows[0] as { id: number }).id;
};

export const countRows = async (server: TTestServer, sql: string, values: unknown[] = []) => {
  const { rows } = await server.database.executeSql(sql, values);

  return Number((rows[0] as { n: number | string }).n);
};

/** a connected socket that has received `ready` */
export const openSocket = async (server: TTestServer, token: string) => {
  const socket = io(server.url, { auth: { token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });

  return socket;
};

/** waits until the server has put a socket in the room (joins are asynchronous on the server) */
export const untilJoined = async (server: TTestServer, room: string, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while ((await server.ctx.realtime.io.in(room).fetchSockets()).length === 0) {
    if (Date.now() > end) throw new Error(`no socket joined ${room} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** records every event a socket receives, so a test can assert what arrived and what did not */
export const recordEvents = (socket: Socket) => {
  const heard: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));

  return {
    heard,
    /** resolves with the first payload of the event that satisfies the predicate */
    waitFor: (event: string, match: (payload: any) => boolean = () => true, timeoutMs = 3000) =>
      new Promise<any>((resolve, reject) => {
        const found = heard.find((h) => h.event === event && match(h.payload));
        if (found) return resolve(found.payload);
        const timer = setTimeout(() => {
          socket.off(event, listener);
          reject(new Error(`no ${event} within ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (payload: unknown) => {
          if (!match(payload)) return;
          clearTimeout(timer);
          socket.off(event, listener);
          resolve(payload);
        };
        socket.on(event, listener);
      }),
  };
};

/**
 * A second live session of a user, as another device would hold. A login ends the user's other
 * sessions, so the row is written directly and its access token signed with the server's key.
 */
export const openExtraSession = async (server: TTestServer, userId: number, companyId: number) => {
  const sid = randomUUID();
  await server.database.executeSql(
    `insert into user_sessions (id, user_id, company_id, refresh_token_hash, expires_at)
     values ($1, $2, $3, $4, now() + interval '1 day')`,
    [sid, userId, companyId, 'f'.repeat(64)],
  );

  return server.ctx.tokens.signAccess({ sub: userId, cid: companyId, sid });
};

/**
 * Scans a sandbox connection's QR code as soon as it shows one, then waits until the connection is CONNECTED in
 * the database. Polls until a deadline, not a number of tries: a loaded machine takes seconds.
 */
export const scanSandbox = async (server: TTestServer, token: string, connectionId: number, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  const pause = () => new Promise((r) => setTimeout(r, 20));
  while ((await server.request('POST', `/api/sandbox/${connectionId}/scan`, { token, body: {} })).status !== 200) {
    if (Date.now() > deadline) throw new Error(`sandbox connection ${connectionId} never showed its QR code`);
    await pause();
  }
  while (Date.now() <= deadline) {
    const { rows } = await server.database.executeSql('select status from whatsapps where id = $1', [connectionId]);
    if ((rows[0] as { status?: string } | undefined)?.status === 'CONNECTED') return connectionId;
    await pause();
  }
  throw new Error(`sandbox connection ${connectionId} did not connect`);
};
