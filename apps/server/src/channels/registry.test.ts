import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness';
import type { TDatabase } from '../db/client';
import { createChannelRegistry, type TChannelBus, type TChannelCommand, type TChannelRegistry } from './registry';
import type { TChannelCall, TChannelReply } from './remote-session';
import type { TChannelEvents, TChannelSession, TConnectionState } from './types';

let database: TDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const silent = {
  child: () => silent,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as never;

describe('channel registry', () => {
  it('a replaced session’s late state report is dropped: it never overwrites the new session’s', async () => {
    const { rows } = await database.executeSql(
      "insert into companies (name, email) values ('Registry', 'registry@zelo.test') returning id",
    );
    const companyId = (rows[0] as { id: number }).id;
    const made = await database.executeSql(
      "insert into whatsapps (company_id, name, provider, status) values ($1, 'R', 'sandbox', 'OPENING') returning id",
      [companyId],
    );
    const id = (made.rows[0] as { id: number }).id;
    const created: { events: TChannelEvents }[] = [];
    const registry = createChannelRegistry({
      db: database.db,
      log: silent,
      singleNode: true,
      drivers: {
        sandbox: (connection, events) => {
          created.push({ events });
          return {
            connectionId: connection.id,
            provider: 'sandbox',
            start: async () => undefined,
            stop: async () => undefined,
          } as unknown as TChannelSession;
        },
      },
    });
    const seen: TConnectionState[] = [];
    registry.setEvents({ onState: async (s) => void seen.push(s) });
    const ref = { id, companyId, provider: 'sandbox' as const };
    await registry.start(ref);
    await registry.restart(id);
    expect(created).toHaveLength(2);
    await created[1].events.onState({ connectionId: id, status: 'CONNECTED' });
    // the first session's Graph check or retry timer finishing late
    await created[0].events.onState({ connectionId: id, status: 'OPENING', retries: 3 });
    expect(seen.map((s) => s.status)).toEqual(['CONNECTED']);
    expect(registry.state(id)?.status).toBe('CONNECTED');
    await registry.close();
  });

  it('a holder that stalled past the stale time never uses the session again: its reports are dropped, its calls go to the new holder', async () => {
    const id = await connection('Stall');
    const cluster = fakeCluster();
    // A renews its lease once a minute: from the others' point of view it froze (SIGSTOP) right after starting
    const a = cluster.node('A', { heartbeatMs: 60_000, staleMs: 2_000 });
    const b = cluster.node('B', { heartbeatMs: 100, staleMs: 2_000 });
    try {
      await a.registry.startAll();
      await until(() => a.registry.state(id)?.status === 'CONNECTED');
      const face = a.registry.session(id);
      await b.registry.startAll();
      await until(() => b.registry.state(id)?.status === 'CONNECTED', 5_000);
      // A comes back: its driver reports the session replaced, and a reply queued during the pause goes out
      const heardBefore = a.heard.length;
      await cluster.driverEvents('A', id).onState({ connectionId: id, status: 'DISCONNECTED' });
      expect(a.heard.length).toBe(heardBefore);
      const sent = await face.sendText('5511912345678', 'queued while paused');
      expect(sent.externalId).toMatch(/^B-/);
      expect(cluster.sends).toEqual([{ node: 'B', body: 'queued while paused' }]);
      await until(() => a.registry.local(id) === undefined);
      expect(cluster.stopped).toContain('A');
      expect(a.registry.held()).toEqual([]);
      expect(b.registry.local(id)).toBeDefined();
      expect(b.registry.held()).toContainEqual({ channel: 'sandbox', status: 'CONNECTED' });
      const holder = await database.executeSql('select node_id from channel_leases where connection_id = $1', [id]);
      expect((holder.rows[0] as { node_id: string }).node_id).toBe('B');
    } finally {
      await a.registry.close();
      await b.registry.close();
    }
  });

  it('a node that closes finishes the calls in flight, then hands its sessions over at once; calls meanwhile wait for the new holder', async () => {
    const id = await connection('Handover');
    const cluster = fakeCluster({ sendMs: 300 });
    const a = cluster.node('A', { heartbeatMs: 100, staleMs: 8_000 });
    const b = cluster.node('B', { heartbeatMs: 100, staleMs: 8_000 });
    try {
      await a.registry.startAll();
      await until(() => a.registry.state(id)?.status === 'CONNECTED');
      await b.registry.startAll();
      const inFlight = a.registry.session(id).sendText('5511912345678', 'in flight at close');
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const closing = a.registry.close();
      // asked of B while A stops: answered by A's session until it stops, then by B's once it connects
      const during = b.registry.session(id).sendText('5511912345678', 'during the handover');
      await expect(inFlight).resolves.toMatchObject({ externalId: expect.stringMatching(/^A-/) });
      await until(() => b.registry.state(id)?.status === 'CONNECTED', 3_000);
      // well before the 8 s a dead node's lease takes
      expect(Date.now() - started).toBeLessThan(2_000);
      await closing;
      await expect(during).resolves.toMatchObject({ externalId: expect.any(String) });
      expect(cluster.sends.map((s) => s.body).sort()).toEqual(['during the handover', 'in flight at close']);
      expect(cluster.sends.find((s) => s.body === 'in flight at close')?.node).toBe('A');
    } finally {
      await a.registry.close();
      await b.registry.close();
    }
  });
});

const until = async (check: () => boolean, timeoutMs = 2_000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** a CONNECTED sandbox connection of a company of its own */
const connection = async (name: string) => {
  const company = await database.executeSql('insert into companies (name) values ($1) returning id', [name]);
  const companyId = (company.rows[0] as { id: number }).id;
  const made = await database.executeSql(
    "insert into whatsapps (company_id, name, provider, status) values ($1, $2, 'sandbox', 'CONNECTED') returning id",
    [companyId, name],
  );

  return (made.rows[0] as { id: number }).id;
};

/**
 * Registries of several "nodes" in this process on one database, joined by an in-memory bus that behaves as
 * the Socket.IO adapter does (a command reaches every other node; a call is answered by every other node), and
 * a driver whose sessions connect at once and record which node sent what.
 */
const fakeCluster = (opts: { sendMs?: number } = {}) => {
  const subscribers: ((command: TChannelCommand) => void)[] = [];
  const servers: { node: string; handler: (call: TChannelCall) => Promise<TChannelReply> }[] = [];
  const sends: { node: string; body: string }[] = [];
  const stopped: string[] = [];
  const events = new Map<string, TChannelEvents>();
  const bus = (node: string): TChannelBus => ({
    publish: (command) => {
      for (const s of subscribers) s(command);
    },
    subscribe: (handler) => void subscribers.push(handler),
    request: (call) => Promise.all(servers.filter((s) => s.node !== node).map((s) => s.handler(call))),
    serve: (handler) => void servers.push({ node, handler }),
  });
  const driver =
    (node: string) =>
    (ref: { id: number }, ev: TChannelEvents): TChannelSession => {
      events.set(`${node}:${ref.id}`, ev);
      let seq = 0;
      return {
        connectionId: ref.id,
        provider: 'sandbox',
        start: async () => {
          await ev.onState({ connectionId: ref.id, status: 'CONNECTED' });
        },
        stop: async () => void stopped.push(node),
        sendText: async (_to: string, body: string) => {
          if (opts.sendMs) await new Promise((r) => setTimeout(r, opts.sendMs));
          sends.push({ node, body });
          seq += 1;
          return { externalId: `${node}-${seq}`, ack: 1 };
        },
      } as unknown as TChannelSession;
    };

  return {
    sends,
    stopped,
    driverEvents: (node: string, id: number) => events.get(`${node}:${id}`)!,
    node: (name: string, timing: { heartbeatMs: number; staleMs: number }) => {
      const heard: TConnectionState[] = [];
      const registry: TChannelRegistry = createChannelRegistry({
        db: database.db,
        log: silent,
        singleNode: false,
        nodeId: name,
        bus: bus(name),
        drivers: { sandbox: driver(name) },
        ...timing,
      });
      registry.setEvents({ onState: async (s) => void heard.push(s) });

      return { registry, heard };
    },
  };
};
