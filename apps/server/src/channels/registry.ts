import { randomBytes } from 'node:crypto';
import type { TConnectionStatus } from '@zelo/shared';
import type { Logger } from 'pino';
import type { TDb } from '../db/client';
import { AppError } from '../http/errors';
import {
  acquireLease,
  dropLease,
  findConnectionRef,
  heartbeatLeases,
  leaseHolder,
  listOrphans,
  listStartable,
  releaseAllLeases,
  releaseLease,
} from './registry.repo';
import { remoteSession, serveCall, type TChannelCall, type TChannelReply } from './remote-session';
import type { TChannelEvents, TChannelSession, TConnectionRef, TConnectionState, TDriverFactory } from './types';

/**
 * The sessions of this node (ARCHITECTURE §1, §7). Every connection with a live session is owned by
 * exactly one node: a `channel_leases` row renewed every `heartbeatMs`; a node whose heartbeat is older
 * than `staleMs` is taken for dead and its connections are started by another node. On PGlite there is
 * one process per database, so its leases are taken unconditionally.
 *
 * The registry handles no business rules: `onState` and the inbound handlers are bound with
 * `setEvents` (app.ts), and a failing driver or handler is logged, never thrown at the server; only a message
 * the inbound handler could not store fails the driver's call (the sender must know it was not kept).
 */

/** a command for the node that owns a connection (several nodes: sent over the Socket.IO adapter) */
export type TChannelCommand = { op: 'start' | 'stop' | 'logout'; connectionId: number; from: string };

export type TChannelBus = {
  publish: (command: TChannelCommand) => void;
  subscribe: (handler: (command: TChannelCommand) => void) => void;
  /** asks every other node; each answers its reply (null when it does not hold the session) */
  request?: (call: TChannelCall) => Promise<TChannelReply[]>;
  /** answers the calls of other nodes */
  serve?: (handler: (call: TChannelCall) => Promise<TChannelReply>) => void;
};

export type TChannelRegistry = {
  readonly nodeId: string;
  /** (re)starts the connection's session: here when this node may own it, else on its owner */
  start: (connection: TConnectionRef) => Promise<void>;
  /** stops the session without changing what is stored (shutdown, delete) */
  stop: (connectionId: number) => Promise<void>;
  /** "try again": stops and starts again with the stored pairing */
  restart: (connectionId: number) => Promise<void>;
  /** unpairs: the driver clears its stored auth state and reports DISCONNECTED; the session stops */
  logout: (connectionId: number) => Promise<void>;
  /**
   * The connected session: this node's, or on a cluster a proxy whose calls run on the node that holds
   * it; ERR_WAPP_NOT_INITIALIZED when no node has it CONNECTED (at once here, or when a proxied call ends).
   */
  session: (connectionId: number) => TChannelSession;
  /** this node's session object in any state (simulator hooks, diagnostics), or undefined */
  local: (connectionId: number) => TChannelSession | undefined;
  /** the last state the session reported on this node */
  state: (connectionId: number) => TConnectionState | undefined;
  /** the connection (company, provider) of a session of this node */
  refOf: (connectionId: number) => TConnectionRef | undefined;
  /** late binding of the event handlers; a partial set replaces only the handlers it names */
  setEvents: (events: Partial<TChannelEvents>) => void;
  /** boot: starts every connection that should run and that no live node owns */
  startAll: () => Promise<void>;
  /** the connection was deleted: stop its session wherever it runs and drop its lease */
  forget: (connectionId: number) => Promise<void>;
  /** stops every session of this node and releases its leases (server close) */
  close: () => Promise<void>;
};

export type TRegistryOptions = {
  db: TDb;
  log: Logger;
  /** one factory per provider; a provider without a driver can not start */
  drivers: Partial<Record<TConnectionRef['provider'], TDriverFactory>>;
  /** PGlite: a single process, leases are taken unconditionally and nobody takes them over */
  singleNode: boolean;
  bus?: TChannelBus;
  heartbeatMs?: number;
  staleMs?: number;
  nodeId?: string;
};

/** statuses a session is left in until an admin acts: not started at boot nor taken over */
const IDLE_STATUSES: TConnectionStatus[] = ['DISCONNECTED', 'TIMEOUT'];

const noop = async () => undefined;

export const createChannelRegistry = (opts: TRegistryOptions): TChannelRegistry => {
  const { db, log } = opts;
  const nodeId = opts.nodeId ?? `node-${randomBytes(6).toString('hex')}`;
  const heartbeatMs = opts.heartbeatMs ?? 10_000;
  const staleSeconds = Math.max(1, Math.round((opts.staleMs ?? 30_000) / 1000));
  const sessions = new Map<number, TChannelSession>();
  const states = new Map<number, TConnectionState>();
  const refs = new Map<number, TConnectionRef>();
  /** one operation at a time per connection: a start never overlaps a stop */
  const queues = new Map<number, Promise<unknown>>();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let bootRun: Promise<void> | undefined;

  let handlers: TChannelEvents = { onState: noop, onMessage: noop, onMessageUpdate: noop, onCall: noop };

  const guard =
    <T>(name: string, pick: () => ((arg: T) => Promise<void>) | undefined, rethrow = false) =>
    async (arg: T) => {
      try {
        await pick()?.(arg);
      } catch (err) {
        log.error({ err, handler: name }, 'channel event handler failed');
        if (rethrow) throw err;
      }
    };

  /** what drivers call: records the state, then the bound handler (never throws back into a driver) */
  const driverEvents: TChannelEvents = {
    onState: async (state) => {
      if (!sessions.has(state.connectionId)) return; // a stopped session's late report
      states.set(state.connectionId, state);
      await guard('onState', () => handlers.onState)(state);
    },
    // a message that could not be stored fails its driver's call: the sandbox answers an error, the Cloud API
    // keeps its webhook for the next drain
    onMessage: guard('onMessage', () => handlers.onMessage, true),
    onMessageUpdate: guard('onMessageUpdate', () => handlers.onMessageUpdate),
    onCall: guard('onCall', () => handlers.onCall),
    onContactUpdate: guard('onContactUpdate', () => handlers.onContactUpdate),
  };

  /**
   * The events of one session object: a state reported by a session that was replaced (a restart while its
   * Graph check or its retry timer was still running) is dropped, so it never overwrites the new one's.
   */
  const eventsOf = (connectionId: number, owner: { session?: TChannelSession }): TChannelEvents => ({
    ...driverEvents,
    onState: async (state) => {
      if (owner.session && sessions.get(connectionId) !== owner.session) return;
      await driverEvents.onState(state);
    },
  });

  const serial = <T>(connectionId: number, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(connectionId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    queues.set(connectionId, next);
    void next.finally(() => {
      if (queues.get(connectionId) === next) queues.delete(connectionId);
    });

    return next;
  };

  /** stops this node's session; `release` gives the lease back (not when a new session follows) */
  const stopLocal = async (connectionId: number, release = true) => {
    const current = sessions.get(connectionId);
    sessions.delete(connectionId);
    states.delete(connectionId);
    refs.delete(connectionId);
    if (current) {
      try {
        await current.stop();
      } catch (err) {
        log.warn({ err, connectionId }, 'channel session stop failed');
      }
    }
    if (release) {
      await releaseLease(db, connectionId, nodeId).catch((err) =>
        log.warn({ err, connectionId }, 'releasing a channel lease failed'),
      );
    }
  };

  const mayOwn = (connectionId: number) => acquireLease(db, connectionId, nodeId, staleSeconds, opts.singleNode);

  const startLocal = async (connection: TConnectionRef) => {
    await stopLocal(connection.id, false);
    if (closed) return;
    const factory = opts.drivers[connection.provider];
    if (!factory) {
      log.warn({ connectionId: connection.id, provider: connection.provider }, 'no driver for this provider');
      return;
    }
    try {
      const owner: { session?: TChannelSession } = {};
      const session = factory(connection, eventsOf(connection.id, owner));
      owner.session = session;
      sessions.set(connection.id, session);
      refs.set(connection.id, connection);
      await session.start();
    } catch (err) {
      log.error({ err, connectionId: connection.id }, 'channel session failed to start');
    }
  };

  /** runs a command here when this node owns (or may take) the connection, else asks its owner */
  const dispatch = async (op: TChannelCommand['op'], connectionId: number, connection?: TConnectionRef) => {
    if (closed) return;
    const here = sessions.has(connectionId) || (await mayOwn(connectionId));
    if (!here) {
      opts.bus?.publish({ op, connectionId, from: nodeId });
      return;
    }
    await serial(connectionId, async () => {
      const ref = op === 'stop' ? undefined : (connection ?? (await findConnectionRef(db, connectionId)));
      if (!ref) {
        await stopLocal(connectionId);
        return;
      }
      if (op === 'logout') {
        const owner: { session?: TChannelSession } = {};
        const session = sessions.get(connectionId) ?? opts.drivers[ref.provider]?.(ref, eventsOf(connectionId, owner));
        owner.session ??= session;
        if (!session) {
          await stopLocal(connectionId);
          return;
        }
        sessions.set(connectionId, session);
        refs.set(connectionId, ref);
        try {
          await session.logout();
        } catch (err) {
          log.warn({ err, connectionId }, 'channel logout failed');
        }
        await stopLocal(connectionId);
        return;
      }
      await startLocal(ref);
    });
  };

  const connectedHere = (connectionId: number) => {
    const session = sessions.get(connectionId);

    return session && states.get(connectionId)?.status === 'CONNECTED' ? session : undefined;
  };

  opts.bus?.serve?.((call) =>
    call.from === nodeId ? Promise.resolve(null) : serveCall(call, (id) => (closed ? undefined : connectedHere(id))),
  );

  opts.bus?.subscribe((command) => {
    if (command.from === nodeId || !sessions.has(command.connectionId)) return;
    void dispatch(command.op, command.connectionId).catch((err) =>
      log.error({ err, command }, 'channel command failed'),
    );
  });

  const takeOver = async () => {
    for (const ref of await listOrphans(db, IDLE_STATUSES, staleSeconds)) {
      if (closed) return;
      if (sessions.has(ref.id)) continue;
      if (await mayOwn(ref.id)) await serial(ref.id, () => startLocal(ref));
    }
  };

  const tick = async () => {
    try {
      const held = new Set(await heartbeatLeases(db, nodeId));
      // a lease lost to another node (this one stalled past the stale time): its session goes
      for (const id of [...sessions.keys()]) if (!held.has(id)) await serial(id, () => stopLocal(id, false));
      await takeOver();
    } catch (err) {
      log.warn({ err }, 'channel lease heartbeat failed');
    }
  };

  const registry: TChannelRegistry = {
    nodeId,
    start: (connection) => dispatch('start', connection.id, connection),
    stop: (connectionId) => dispatch('stop', connectionId),
    restart: (connectionId) => dispatch('start', connectionId),
    logout: (connectionId) => dispatch('logout', connectionId),
    session: (connectionId) => {
      const session = connectedHere(connectionId);
      if (session) return session;
      const request = opts.bus?.request;
      if (opts.singleNode || !request || sessions.has(connectionId)) {
        throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected');
      }

      return remoteSession(connectionId, (call) => request({ ...call, from: nodeId }));
    },
    local: (connectionId) => sessions.get(connectionId),
    state: (connectionId) => states.get(connectionId),
    refOf: (connectionId) => refs.get(connectionId),
    setEvents: (events) => {
      handlers = { ...handlers, ...Object.fromEntries(Object.entries(events).filter(([, fn]) => fn)) };
    },
    startAll: () => {
      bootRun ??= (async () => {
        try {
          if (opts.singleNode) {
            for (const ref of await listStartable(db, IDLE_STATUSES)) {
              if (closed) return;
              if (sessions.has(ref.id)) continue;
              if (await mayOwn(ref.id)) await serial(ref.id, () => startLocal(ref));
            }
          } else {
            await takeOver();
          }
        } catch (err) {
          log.error({ err }, 'starting the channel sessions failed');
        }
        if (!opts.singleNode && !closed) {
          timer = setInterval(() => void tick(), heartbeatMs);
          timer.unref();
        }
      })();

      return bootRun;
    },
    forget: async (connectionId) => {
      if (sessions.has(connectionId)) await serial(connectionId, () => stopLocal(connectionId));
      else if ((await leaseHolder(db, connectionId)) !== undefined) {
        opts.bus?.publish({ op: 'stop', connectionId, from: nodeId });
      }
      await dropLease(db, connectionId);
    },
    close: async () => {
      closed = true;
      if (timer) clearInterval(timer);
      await bootRun?.catch(() => undefined);
      await Promise.all([...sessions.keys()].map((id) => serial(id, () => stopLocal(id, false))));
      await releaseAllLeases(db, nodeId).catch((err) => log.warn({ err }, 'releasing channel leases failed'));
    },
  };

  return registry;
};
