import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { events } from '@zelo/shared';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TS3Server } from './s3-server';

/**
 * Two real server processes on one PostgreSQL database with the Redis adapter: they migrate and seed
 * once between them, and an event caused on one node reaches a socket held by the other. They share no folder:
 * each has its own DATA_DIR, and media live in an S3-compatible bucket (MEDIA_STORE=s3 on a loopback s3rver).
 */
const BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'cluster@zelo.test', password: 'Cluster-Pass-1' };
const MAIN = resolve(import.meta.dirname, '../src/main.ts');

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

type TNode = { url: string; proc: ChildProcess; dataDir: string };
const dbName = `zelo_cluster_${randomBytes(4).toString('hex')}`;
const nodes: TNode[] = [];
const sockets: Socket[] = [];
let admin: pg.Client;
let s3: TS3Server;

const startNode = async (databaseUrl: string): Promise<TNode> => {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'zelo-node-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      ...s3.env,
      JWT_SECRET: 'cluster-access-secret-0123456789',
      JWT_REFRESH_SECRET: 'cluster-refresh-secret-0123456789',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`node did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"readyMs"')) {
        clearTimeout(timer);
        ok();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', (code) => fail(new Error(`node exited with ${code}:\n${output}`)));
  });

  return { url: `http://127.0.0.1:${port}`, proc, dataDir };
};

const api = async (node: TNode, method: string, path: string, token?: string, body?: unknown) => {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });

  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
};

const until = async (check: () => Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 150));
  }
};

const connect = (node: TNode, token: string) =>
  new Promise<Socket>((ok, fail) => {
    const socket = io(node.url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    socket.once('ready', () => ok(socket));
    socket.once('connect_error', fail);
  });

beforeAll(async () => {
  admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  s3 = await startS3Server();
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  // both nodes start at once on an empty database
  nodes.push(...(await Promise.all([startNode(url.toString()), startNode(url.toString())])));
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await Promise.all(
    nodes.map(
      (n) =>
        new Promise<void>((done) => {
          n.proc.once('exit', () => done());
          n.proc.kill('SIGTERM');
        }),
    ),
  );
  for (const n of nodes) rmSync(n.dataDir, { recursive: true, force: true });
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  await s3?.close();
});

describe('two nodes with the Redis adapter', () => {
  it('migrate and seed once between them', async () => {
    const url = new URL(BASE_URL);
    url.pathname = `/${dbName}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const { rows } = await client.query('select count(*)::int as n from users where super');
    await client.end();
    expect(rows[0].n).toBe(1);
  });

  it('an event caused on node A reaches a socket on node B', async () => {
    const [a, b] = nodes;
    const login = await api(a, 'POST', '/api/auth/login', undefined, ADMIN);
    expect(login.status).toBe(200);
    const { token, user } = login.body;
    const socket = await connect(b, token);
    const heard = new Promise<{ setting: unknown }>((ok) => socket.once(events.settings(user.companyId), ok));
    expect((await api(a, 'PUT', '/api/settings/userRating', token, { value: 'enabled' })).status).toBe(200);
    expect((await heard).setting).toEqual({ key: 'userRating', value: 'enabled' });
  });

  it('a reply sent through node B goes out on the session node A holds', async () => {
    const [a, b] = nodes;
    const { token } = (await api(a, 'POST', '/api/auth/login', undefined, ADMIN)).body;
    const created = await api(a, 'POST', '/api/whatsapp', token, { name: 'Cluster sandbox' });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const status = async () => (await api(a, 'GET', `/api/whatsapp/${id}`, token)).body.status as string;
    await until(async () => (await status()) === 'qrcode');
    expect((await api(a, 'POST', `/api/sandbox/${id}/scan`, token, {})).status).toBe(200);
    await until(async () => (await status()) === 'CONNECTED');
    const customer = '5511977776666';
    const inbound = await api(a, 'POST', `/api/sandbox/${id}/inbound`, token, { from: customer, body: 'oi' });
    expect(inbound.status).toBe(200);
    let ticketId = 0;
    await until(async () => {
      const list = await api(b, 'GET', '/api/tickets?status=pending&showAll=true', token);
      ticketId = list.body.tickets.find((t: { contact: { number: string } }) => t.contact.number === customer)?.id;
      return Boolean(ticketId);
    });
    expect((await api(b, 'PUT', `/api/tickets/${ticketId}`, token, { status: 'open' })).status).toBe(200);
    // node B holds no session of this connection: the send runs on node A and answers its result here
    const sent = await api(b, 'POST', `/api/messages/${ticketId}`, token, { body: 'resposta pelo nó B' });
    expect(sent.status).toBeLessThan(300);
    await until(async () => {
      const box = await api(a, 'GET', `/api/sandbox/${id}/outbox?to=${customer}`, token);
      return box.body.messages.some((m: { body: string }) => m.body.includes('resposta pelo nó B'));
    });
    const stored = await api(b, 'GET', `/api/messages/${ticketId}`, token);
    const reply = stored.body.messages.find((m: { body: string }) => m.body.includes('resposta pelo nó B'));
    // stored once, sent (a failed send stays at ack 0 with its reason)
    expect(reply.fromMe).toBe(true);
    expect(reply.ack).toBeGreaterThanOrEqual(1);
  });

  it("a customer's photo stored through node A is served by node B from the bucket, with no media folder on either", async () => {
    const [a, b] = nodes;
    const { token } = (await api(a, 'POST', '/api/auth/login', undefined, ADMIN)).body;
    const created = await api(a, 'POST', '/api/whatsapp', token, { name: 'Cluster media' });
    const id = created.body.id as number;
    const status = async () => (await api(a, 'GET', `/api/whatsapp/${id}`, token)).body.status as string;
    await until(async () => (await status()) === 'qrcode');
    expect((await api(a, 'POST', `/api/sandbox/${id}/scan`, token, {})).status).toBe(200);
    await until(async () => (await status()) === 'CONNECTED');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5000)]);
    const customer = '5511944443333';
    const sent = await api(a, 'POST', `/api/sandbox/${id}/inbound`, token, {
      from: customer,
      type: 'image',
      body: 'foto',
      media: { data: png.toString('base64'), mimetype: 'image/png', fileName: 'foto.png' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let mediaUrl = '';
    await until(async () => {
      const list = await api(b, 'GET', '/api/tickets?status=pending&showAll=true', token);
      const ticket = list.body.tickets.find((t: { contact: { number: string } }) => t.contact.number === customer);
      if (!ticket) return false;
      const messages = await api(b, 'GET', `/api/messages/${ticket.id}`, token);
      mediaUrl = messages.body.messages.find((m: { mediaUrl?: string }) => m.mediaUrl)?.mediaUrl ?? '';
      return mediaUrl !== '';
    });
    for (const node of [a, b]) {
      const res = await fetch(`${node.url}/public/${mediaUrl.split('/').pop()}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
      expect(existsSync(join(node.dataDir, 'media'))).toBe(false);
    }
  });

  it('the simulator on node B plays a customer of the sandbox session node A holds (forwarded, not 409)', async () => {
    const [a, b] = nodes;
    const { token } = (await api(a, 'POST', '/api/auth/login', undefined, ADMIN)).body;
    const created = await api(a, 'POST', '/api/whatsapp', token, { name: 'Cluster simulator' });
    const id = created.body.id as number;
    const status = async () => (await api(a, 'GET', `/api/whatsapp/${id}`, token)).body.status as string;
    await until(async () => (await status()) === 'qrcode');
    expect((await api(a, 'POST', `/api/sandbox/${id}/scan`, token, {})).status).toBe(200);
    await until(async () => (await status()) === 'CONNECTED');
    const customer = '5511977775555';
    // whichever node holds the session, the other one forwards the customer's message to it
    const results = await Promise.all(
      [a, b].map((node, i) =>
        api(node, 'POST', `/api/sandbox/${id}/inbound`, token, { from: customer, body: `oi ${i}` }),
      ),
    );
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
    await until(async () => {
      const list = await api(b, 'GET', '/api/tickets?status=pending&showAll=true', token);
      const ticket = list.body.tickets.find((t: { contact: { number: string } }) => t.contact.number === customer);
      if (!ticket) return false;
      const messages = await api(b, 'GET', `/api/messages/${ticket.id}`, token);
      return messages.body.messages.length === 2;
    });
    // and reads what the business sent from either node
    for (const node of [a, b]) {
      expect((await api(node, 'GET', `/api/sandbox/${id}/outbox?to=${customer}`, token)).status).toBe(200);
    }
  });

  it("a list kept on node B is read anew once node A announces a change, before B's sockets hear of it", async () => {
    const [a, b] = nodes;
    const { token, user } = (await api(a, 'POST', '/api/auth/login', undefined, ADMIN)).body;
    const created = await api(a, 'POST', '/api/whatsapp', token, { name: 'Cluster lists' });
    const id = created.body.id as number;
    const status = async () => (await api(a, 'GET', `/api/whatsapp/${id}`, token)).body.status as string;
    await until(async () => (await status()) === 'qrcode');
    expect((await api(a, 'POST', `/api/sandbox/${id}/scan`, token, {})).status).toBe(200);
    await until(async () => (await status()) === 'CONNECTED');
    const customer = '5511966665555';
    expect((await api(a, 'POST', `/api/sandbox/${id}/inbound`, token, { from: customer, body: 'oi' })).status).toBe(
      200,
    );
    const pendingOnB = async () =>
      (await api(b, 'GET', '/api/tickets?status=pending&showAll=true', token)).body.tickets as {
        id: number;
        contact: { number: string };
      }[];
    let ticketId = 0;
    await until(async () => {
      ticketId = (await pendingOnB()).find((t) => t.contact.number === customer)?.id ?? 0;
      return ticketId > 0;
    });
    // B keeps this answer; the accept on A must make it stale on B before B's socket hears of the accept
    expect((await pendingOnB()).some((t) => t.id === ticketId)).toBe(true);
    const socket = await connect(b, token);
    socket.emit('joinTickets', 'open');
    await new Promise((r) => setTimeout(r, 200));
    const readOnHearing = new Promise<{ pending: number[]; open: number[] }>((ok) => {
      socket.on(events.ticket(user.companyId), (event: { action: string; ticket?: { id: number; status: string } }) => {
        if (event.action !== 'update' || event.ticket?.id !== ticketId || event.ticket.status !== 'open') return;
        void Promise.all([
          pendingOnB(),
          api(b, 'GET', '/api/tickets?status=open&showAll=true', token).then((r) => r.body.tickets),
        ]).then(([pending, open]) =>
          ok({ pending: pending.map((t) => t.id), open: (open as { id: number }[]).map((t) => t.id) }),
        );
      });
    });
    expect((await api(a, 'PUT', `/api/tickets/${ticketId}`, token, { status: 'open' })).status).toBe(200);
    const lists = await readOnHearing;
    expect(lists.pending).not.toContain(ticketId);
    expect(lists.open).toContain(ticketId);
  });

  it("a list kept on node B takes a customer's message stored on node A (patched there), before B's sockets hear of it", async () => {
    const [a, b] = nodes;
    const { token, user } = (await api(a, 'POST', '/api/auth/login', undefined, ADMIN)).body;
    const created = await api(a, 'POST', '/api/whatsapp', token, { name: 'Cluster patched lists' });
    const id = created.body.id as number;
    const status = async () => (await api(a, 'GET', `/api/whatsapp/${id}`, token)).body.status as string;
    await until(async () => (await status()) === 'qrcode');
    expect((await api(a, 'POST', `/api/sandbox/${id}/scan`, token, {})).status).toBe(200);
    await until(async () => (await status()) === 'CONNECTED');
    const customer = '5511944443333';
    expect((await api(a, 'POST', `/api/sandbox/${id}/inbound`, token, { from: customer, body: 'oi' })).status).toBe(
      200,
    );
    const pendingOnB = async () =>
      (await api(b, 'GET', '/api/tickets?status=pending&showAll=true', token)).body.tickets as {
        id: number;
        lastMessage: string;
        contact: { number: string };
      }[];
    let ticketId = 0;
    await until(async () => {
      ticketId = (await pendingOnB()).find((t) => t.contact.number === customer)?.id ?? 0;
      return ticketId > 0;
    });
    // B keeps this answer; the next message stored on A must be in it before B's socket hears of the message
    expect((await pendingOnB()).find((t) => t.id === ticketId)?.lastMessage).toBe('oi');
    const socket = await connect(b, token);
    socket.emit('joinNotification');
    await new Promise((r) => setTimeout(r, 200));
    const readOnHearing = new Promise<string | undefined>((ok) => {
      socket.on(events.appMessage(user.companyId), (event: { action: string; message?: { body: string } }) => {
        if (event.action === 'create' && event.message?.body === 'ainda aí?')
          void pendingOnB().then((list) => ok(list.find((t) => t.id === ticketId)?.lastMessage));
      });
    });
    expect(
      (await api(a, 'POST', `/api/sandbox/${id}/inbound`, token, { from: customer, body: 'ainda aí?' })).status,
    ).toBe(200);
    expect(await readOnHearing).toBe('ainda aí?');
  });

  it("a conversation kept on node B is read anew once node A stores a customer's message, before B's sockets hear of it", async () => {
    const [a, b] = nodes;
    const { token, user } = (await api(a, 'POST', '/api/auth/login', undefined, ADMIN)).body;
    const created = await api(a, 'POST', '/api/whatsapp', token, { name: 'Cluster conversation' });
    const id = created.body.id as number;
    const status = async () => (await api(a, 'GET', `/api/whatsapp/${id}`, token)).body.status as string;
    await until(async () => (await status()) === 'qrcode');
    expect((await api(a, 'POST', `/api/sandbox/${id}/scan`, token, {})).status).toBe(200);
    await until(async () => (await status()) === 'CONNECTED');
    const customer = '5511955554444';
    expect((await api(a, 'POST', `/api/sandbox/${id}/inbound`, token, { from: customer, body: 'oi' })).status).toBe(
      200,
    );
    let ticketId = 0;
    await until(async () => {
      const list = await api(b, 'GET', '/api/tickets?status=pending&showAll=true', token);
      ticketId = list.body.tickets.find((t: { contact: { number: string } }) => t.contact.number === customer)?.id ?? 0;
      return ticketId > 0;
    });
    const bodiesOnB = async () =>
      ((await api(b, 'GET', `/api/messages/${ticketId}`, token)).body.messages as { body: string }[]).map(
        (m) => m.body,
      );
    // B keeps this answer; the next message stored on A must make it stale on B before B's socket hears of it
    expect(await bodiesOnB()).toEqual(['oi']);
    expect(await bodiesOnB()).toEqual(['oi']);
    const socket = await connect(b, token);
    socket.emit('joinNotification');
    await new Promise((r) => setTimeout(r, 200));
    const readOnHearing = new Promise<string[]>((ok) => {
      socket.on(events.appMessage(user.companyId), (event: { action: string; message?: { body: string } }) => {
        if (event.action === 'create' && event.message?.body === 'tudo bem?') void bodiesOnB().then(ok);
      });
    });
    expect(
      (await api(a, 'POST', `/api/sandbox/${id}/inbound`, token, { from: customer, body: 'tudo bem?' })).status,
    ).toBe(200);
    expect(await readOnHearing).toEqual(['oi', 'tudo bem?']);
  });

  it('a login on node B signs out the tab connected to node A', async () => {
    const [a, b] = nodes;
    const first = await api(a, 'POST', '/api/auth/login', undefined, ADMIN);
    const socket = await connect(a, first.body.token);
    const heard = new Promise((ok) => socket.once(events.auth(first.body.user.companyId), ok));
    expect((await api(b, 'POST', '/api/auth/login', undefined, ADMIN)).status).toBe(200);
    expect(await heard).toEqual({ action: 'update', user: { id: first.body.user.id } });
    expect((await api(a, 'GET', '/api/auth/me', first.body.token)).status).toBe(401);
  });

  it('a user changed on node B is seen changed on node A at once (its kept principal is forgotten there)', async () => {
    const [a, b] = nodes;
    const admin = await api(b, 'POST', '/api/auth/login', undefined, ADMIN);
    const email = `kept-${randomBytes(3).toString('hex')}@zelo.test`;
    const created = await api(b, 'POST', '/api/users', admin.body.token, {
      name: 'Kept Admin',
      email,
      password: 'Kept-Pass-1',
      profile: 'admin',
    });
    expect(created.status).toBe(201);
    const user = await api(a, 'POST', '/api/auth/login', undefined, { email, password: 'Kept-Pass-1' });
    // an admin reads the whole users page, an attendant only each user's brief (no `allTicket`)
    const page = async () => (await api(a, 'GET', '/api/users', user.body.token)).body.users[0];
    expect(await page()).toHaveProperty('allTicket');
    const changed = await api(b, 'PUT', `/api/users/${created.body.id}`, admin.body.token, { profile: 'user' });
    expect(changed.status).toBe(200);
    expect(await page()).not.toHaveProperty('allTicket');
    expect((await api(b, 'DELETE', `/api/users/${created.body.id}`, admin.body.token)).status).toBe(204);
    expect((await api(a, 'GET', '/api/auth/me', user.body.token)).status).toBe(401);
  });
});
