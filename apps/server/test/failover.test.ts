import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, endNode, metric, slowPost, startNode, type TNode, until } from './nodes';

/**
 * A WhatsApp session moving between real server processes on one PostgreSQL database with Redis (issue 24
 * item 3, issue 23 item 4), with the default lease timing (channels/registry.ts):
 *
 * 1. SIGTERM of the node holding the session: a request in flight on it finishes (its reply is sent), the other
 *    node serves the session within 5 s, and nothing a customer or an agent sent meanwhile is lost.
 * 2. kill -9 of the holder: the survivor serves the session within 15 s; every customer message is stored once.
 * 3. SIGSTOP of the holder until another node took the session over, then SIGCONT: the paused node stops using
 *    the session — a reply queued on it while paused goes out once, through the new holder, and its metrics
 *    show it holds nothing and sent nothing more.
 *
 * Each node's /metrics tells which one holds the session (`zelo_channel_sessions`) and which one sent
 * (`zelo_channel_sends_total`). Customers are played through the sandbox simulator with fixed message ids,
 * retried until a node accepts them, as WhatsApp's servers keep a message until a device takes it.
 */
const BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'failover@zelo.test', password: 'Failover-Pass-1' };
const METRICS = 'failover-metrics-token-0123456789';
const tag = randomBytes(4).toString('hex');
const dbName = `ops_failover_${tag}`;
const nodes: TNode[] = [];
let admin: pg.Client;
let databaseUrl = '';
let token = '';
let connectionId = 0;
let ticketId = 0;
const CUSTOMER = '5511944443333';

const launch = async (name: string) => {
  const node = await startNode(name, {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    // this test's nodes only: other tests may share the Redis server
    REDIS_PREFIX: `zelo-failover-${tag}`,
    JWT_SECRET: 'failover-access-secret-0123456789',
    JWT_REFRESH_SECRET: 'failover-refresh-secret-0123456789',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'info',
    METRICS_TOKEN: METRICS,
    // a delivery a killed node had claimed is taken again after 5 s (60 s by default), polled every second
    INBOUND_CLAIM_MS: '5000',
    INBOUND_POLL_MS: '1000',
  });
  nodes.push(node);

  return node;
};

const connectedHere = (node: TNode) =>
  metric(node, METRICS, 'zelo_channel_sessions', { channel: 'sandbox', status: 'CONNECTED' });
const sentBy = (node: TNode) =>
  metric(node, METRICS, 'zelo_channel_sends_total', { channel: 'sandbox', outcome: 'sent' });

/** the node of the two that holds the session (connected, or in any status with `anyStatus`) */
const holderOf = async (pair: TNode[], anyStatus = false) => {
  let holder: TNode | undefined;
  const holds = (node: TNode) =>
    anyStatus ? metric(node, METRICS, 'zelo_channel_sessions', { channel: 'sandbox' }) : connectedHere(node);
  await until(async () => {
    const counts = await Promise.all(pair.map(holds));
    holder = counts.filter((c) => c > 0).length === 1 ? pair[counts.findIndex((c) => c > 0)] : undefined;
    return Boolean(holder);
  });

  return holder!;
};

/** a customer's message with its own id, offered to `node` until it is accepted; answers when it was */
const customerSays = async (node: TNode, externalId: string, body: string, deadlineMs = 30_000) => {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const res = await api(node, 'POST', `/api/sandbox/${connectionId}/inbound`, token, {
      from: CUSTOMER,
      body,
      externalId,
    }).catch(() => ({ status: 0, body: undefined }));
    if (res.status === 200) return Date.now();
    if (Date.now() > end) throw new Error(`${externalId} never accepted: ${res.status} ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** the customer's messages stored for the ticket, by external id */
const storedIds = async () => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const res = await client.query<{ external_id: string }>(
      'select external_id from messages where whatsapp_id = $1 and from_me = false',
      [connectionId],
    );
    return res.rows.map((r) => r.external_id);
  } finally {
    await client.end();
  }
};

/** what the simulated customer received, as read through `node` */
const outbox = async (node: TNode) =>
  ((await api(node, 'GET', `/api/sandbox/${connectionId}/outbox?to=${CUSTOMER}`, token)).body?.messages ?? []) as {
    body: string;
  }[];

const reply = (node: TNode, body: string) => api(node, 'POST', `/api/messages/${ticketId}`, token, { body });

beforeAll(async () => {
  admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
  const [a, b] = await Promise.all([launch('a'), launch('b')]);
  token = (await api(a, 'POST', '/api/auth/login', undefined, ADMIN)).body.token;
  const created = await api(a, 'POST', '/api/whatsapp', token, { name: 'Failover sandbox' });
  expect(created.status).toBe(201);
  connectionId = created.body.id;
  const status = async () => (await api(b, 'GET', `/api/whatsapp/${connectionId}`, token)).body.status as string;
  await until(async () => (await status()) === 'qrcode');
  const holder = await holderOf([a, b], true);
  // the QR is scanned on the node that shows it (the sandbox's phone)
  expect((await api(holder, 'POST', `/api/sandbox/${connectionId}/scan`, token, {})).status).toBe(200);
  await until(async () => (await status()) === 'CONNECTED');
  await customerSays(a, 'setup-1', 'oi');
  await until(async () => {
    const list = await api(b, 'GET', '/api/tickets?status=pending&showAll=true', token);
    ticketId = list.body.tickets.find((t: { contact: { number: string } }) => t.contact.number === CUSTOMER)?.id ?? 0;
    return ticketId > 0;
  });
  expect((await api(b, 'PUT', `/api/tickets/${ticketId}`, token, { status: 'open' })).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await Promise.all(nodes.map(endNode));
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
});

const live = () => nodes.filter((n) => n.proc.exitCode === null && n.proc.signalCode === null);

describe('a WhatsApp session between two nodes', () => {
  it('SIGTERM: the request in flight finishes, the other node serves within 5 s, nothing is lost', async () => {
    const holder = await holderOf(live());
    const survivor = live().find((n) => n !== holder)!;
    // an agent's reply whose body is still arriving when the holder is told to stop
    const slow = slowPost(holder, `/api/messages/${ticketId}`, token, { body: 'enviada durante o SIGTERM' });
    await new Promise((r) => setTimeout(r, 300));
    const stoppedAt = Date.now();
    holder.proc.kill('SIGTERM');
    // customers and agents keep writing through the survivor all through the handover
    const traffic = (async () => {
      const accepted: number[] = [];
      const replies: { status: number }[] = [];
      for (let i = 0; i < 20; i++) {
        accepted.push(await customerSays(survivor, `term-${i}`, `mensagem ${i}`));
        if (i % 4 === 0) replies.push(await reply(survivor, `resposta ${i}`));
        await new Promise((r) => setTimeout(r, 150));
      }
      return { accepted, replies };
    })();
    await new Promise((r) => setTimeout(r, 300));
    slow.finish();
    const answered = await slow.answer;
    expect(answered.status, JSON.stringify(answered.body)).toBeLessThan(300);
    expect(answered.body.ack).toBeGreaterThanOrEqual(1);
    expect(await holder.exited).toBe(0);
    await until(async () => (await connectedHere(survivor)) === 1, 5_000 - (Date.now() - stoppedAt), 50);
    const servedAfterMs = Date.now() - stoppedAt;
    expect(servedAfterMs).toBeLessThan(5_000);
    const { accepted, replies } = await traffic;
    // no customer waited 5 s for a node to take the message
    const gaps = accepted.map((t, i) => t - (i === 0 ? stoppedAt : accepted[i - 1]!));
    expect(Math.max(...gaps)).toBeLessThan(5_000);
    for (const r of replies) expect(r.status).toBeLessThan(300);
    await until(async () => {
      const ids = await storedIds();
      return Array.from({ length: 20 }, (_, i) => `term-${i}`).every((id) => ids.includes(id));
    }, 15_000);
    const ids = await storedIds();
    expect(ids.length).toBe(new Set(ids).size);
    const received = (await outbox(survivor)).map((m) => m.body);
    for (const body of [
      'enviada durante o SIGTERM',
      'resposta 0',
      'resposta 4',
      'resposta 8',
      'resposta 12',
      'resposta 16',
    ]) {
      expect(
        received.filter((b) => b === body),
        body,
      ).toHaveLength(1);
    }
    expect(holder.output()).toContain('channel sessions handed over');
    console.info(
      `SIGTERM handover: served again after ${servedAfterMs} ms, longest customer wait ${Math.max(...gaps)} ms`,
    );
  }, 120_000);

  it('kill -9: the survivor serves within 15 s and every customer message is stored once', async () => {
    await launch('c');
    const holder = await holderOf(live());
    const survivor = live().find((n) => n !== holder)!;
    // messages the holder accepted right before it died
    for (let i = 0; i < 5; i++) await customerSays(holder, `kill-before-${i}`, `antes ${i}`);
    const killedAt = Date.now();
    holder.proc.kill('SIGKILL');
    // a new customer message offered to the survivor every 500 ms until one is accepted: a call that was on its
    // way to the dead node when it died waits for the bus's request timeout (30 s), the later ones do not
    const probes: string[] = [];
    const firstAccepted = await new Promise<number>((ok, fail) => {
      let served = false;
      const offer = setInterval(() => {
        const externalId = `kill-probe-${probes.length}`;
        probes.push(externalId);
        void api(survivor, 'POST', `/api/sandbox/${connectionId}/inbound`, token, {
          from: CUSTOMER,
          body: externalId,
          externalId,
        })
          .then((res) => {
            if (res.status !== 200 || served) return;
            served = true;
            clearInterval(offer);
            ok(Date.now());
          })
          .catch(() => undefined);
      }, 500);
      setTimeout(() => {
        clearInterval(offer);
        if (!served) fail(new Error('the survivor did not serve the session within 20 s'));
      }, 20_000);
    });
    const servedAfterMs = firstAccepted - killedAt;
    expect(servedAfterMs).toBeLessThan(15_000);
    // the customer's phone offers every message again until one node takes it
    for (const id of probes) await customerSays(survivor, id, id);
    for (let i = 0; i < 5; i++) await customerSays(survivor, `kill-after-${i}`, `depois ${i}`);
    expect((await reply(survivor, 'resposta depois da queda')).status).toBeLessThan(300);
    const expected = [...probes, ...[0, 1, 2, 3, 4].flatMap((i) => [`kill-before-${i}`, `kill-after-${i}`])];
    await until(async () => {
      const ids = await storedIds();
      return expected.every((id) => ids.includes(id));
    }, 20_000);
    const ids = await storedIds();
    expect(ids.length).toBe(new Set(ids).size);
    expect((await outbox(survivor)).filter((m) => m.body === 'resposta depois da queda')).toHaveLength(1);
    console.info(`kill -9 failover: served again after ${servedAfterMs} ms`);
  }, 120_000);

  it('SIGSTOP then SIGCONT: the paused holder notices it lost the lease and never uses the session again', async () => {
    await launch('d');
    const paused = await holderOf(live());
    const other = live().find((n) => n !== paused)!;
    const sentBefore = await sentBy(paused);
    const pausedAt = Date.now();
    paused.proc.kill('SIGSTOP');
    try {
      // a reply sent to the paused node waits in its socket until it comes back
      const queued = api(paused, 'POST', `/api/messages/${ticketId}`, token, { body: 'na fila da pausa' });
      await until(async () => (await connectedHere(other)) === 1, 15_000, 100);
      const takenAfterMs = Date.now() - pausedAt;
      expect(takenAfterMs).toBeLessThan(15_000);
      const otherSent = await sentBy(other);
      expect((await reply(other, 'pelo novo dono')).status).toBeLessThan(300);
      paused.proc.kill('SIGCONT');
      const answered = await queued;
      expect(answered.status, JSON.stringify(answered.body)).toBeLessThan(300);
      expect(answered.body.ack).toBeGreaterThanOrEqual(1);
      // the paused node holds nothing and sent nothing; both replies went out once, from the new holder
      await until(async () => (await connectedHere(paused)) === 0, 5_000);
      expect(await sentBy(paused)).toBe(sentBefore);
      expect(await sentBy(other)).toBe(otherSent + 2);
      const received = (await outbox(other)).map((m) => m.body);
      expect(received.filter((b) => b === 'na fila da pausa')).toHaveLength(1);
      expect(received.filter((b) => b === 'pelo novo dono')).toHaveLength(1);
      // and it stays so: a customer's message through either node is stored once
      await customerSays(paused, 'after-pause-0', 'depois da pausa');
      await until(async () => (await storedIds()).includes('after-pause-0'), 10_000);
      expect(await connectedHere(paused)).toBe(0);
      expect(paused.output()).toContain('channel lease lost to another node');
      console.info(`SIGSTOP: taken over after ${takenAfterMs} ms`);
    } finally {
      paused.proc.kill('SIGCONT');
    }
  }, 120_000);
});
