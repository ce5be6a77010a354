import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { TConnectionStatus } from '@zelo/shared';
import type { Logger } from 'pino';
import type { TDb } from '../db/client';
import { AppError } from '../http/errors';
import { NO_METRICS, type TMetrics } from '../lib/metrics';
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
import {
  REMOTE_METHODS,
  remoteSession,
  serveCall,
  type TChannelCall,
  type TChannelReply,
  type TRemoteMethod,
} from './remote-session';
import type { TChannelEvents, TChannelSession, TConnectionRef, TConnectionState, TDriverFactory } from './types';

/**
 * The sessions of this node (ARCHITECTURE §1, §7). Every connection with a live session is owned by
 * exactly one node: a `channel_leases` row renewed every `heartbeatMs`; a node whose heartbeat is older
 * than `staleMs` is taken for dead and its connections are started by another node. On PGlite there is
 * one process per database, so its leases are taken unconditionally.
 *
 * Timing (issue 23 item 4: a killed node's sessions serve again elsewhere within 15 s). A survivor takes a
 * connection over at its first heartbeat after the lease went stale: at most `staleMs + heartbeatMs` after
 * the holder's last renewal, then the session's own start (sandbox 0.8 s; Baileys reconnects with the stored
 * credentials in 1–3 s). HEARTBEAT_MS 2 s and STALE_MS 8 s give ≤ 10 s + start. The stale time is four
 * heartbeats: a holder misses three renewals in a row (a slow database, a long GC or event-loop stall) before
 * anyone takes over, and a false takeover costs a reconnect, never a session held twice (the fence below).
 * Each node writes one lease update and reads the orphans every 2 s: two small statements per node.
 *
 * Fencing: no session is used by two nodes at once. A node counts its lease valid until
 * `staleMs - LEASE_MARGIN_MS` after it sent the renewal that kept it (a monotonic clock, which runs on while
 * the process is paused), so its validity always ends before another node may take the lease over (which
 * needs `staleMs` past the renewal's database time, later still). Every use of a session of this node —
 * sends and every other call, local or served to another node, and the states its driver reports — checks
 * the validity first; past it, the lease is confirmed in the database (renewed if still ours), and a lease
 * another node took makes this node stop its session at once and pass the call to the holder over the bus. A
 * paused node (SIGSTOP, a frozen VM) that comes back therefore never sends on, nor reports the state of, a
 * session it lost; a heartbeat that fails leaves the sessions running until their validity ends, then stops
 * them.
 *
 * Handover: a node that stops (SIGTERM) tells the other nodes (`releasing`), finishes the calls in flight on
 * its sessions, stops them, deletes its leases and tells them again (`released`), and they take the
 * connections over at once instead of at their next heartbeat. For `HANDOVER_WAIT_MS` after a release is heard, or after this node
 * took a connection over, a call on that connection waits for the new session to connect rather than fail.
 *
 * The registry handles no business rules: `onState` and the inbound handlers are bound with
 * `setEvents` (app.ts), and a failing driver or handler is logged, never thrown at the server; only a message
 * the inbound handler could not store fails the driver's call (the sender must know it was not kept).
 */

/** a command for the node that owns a connection (several nodes: sent over the Socket.IO adapter) */
export type TChannelCommand = {
  /** releasing: the holder is stopping (calls wait for the handover); released: its lease is gone, take it */
  op: 'start' | 'stop' | 'logout' | 'releasing' | 'released';
  connectionId: number;
  from: string;
};

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
  /** this node's sessions whose lease is valid, by channel type and last reported status (metrics) */
  held: () => { channel: string; status: string }[];
  /**
   * stops every session of this node and releases its leases (server close, SIGTERM): the calls in flight
   * end first (up to `graceMs`), and the other nodes are told to take the connections over at once
   */
  close: (opts?: { graceMs?: number }) => Promise<void>;
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
  /** sends counted per channel type and outcome (lib/metrics.ts) */
  metrics?: TMetrics;
};

/** the lease's renewal period and the age at which another node takes it over (see the timing note above) */
export const HEARTBEAT_MS = 2_000;
export const STALE_MS = 8_000;
/** a holder stops trusting its lease this long before another node could take it over */
const LEASE_MARGIN_MS = 1_000;
/** calls on a connection being handed over wait this long for its new session */
export const HANDOVER_WAIT_MS = 8_000;
const HANDOVER_POLL_MS = 100;
/** how long a node that handed its sessions over stays on the bus to answer calls already sent to it */
const RELEASE_LINGER_MS = 1_000;
/** what a stopping node's in-flight calls get when close() is given no grace */
const CLOSE_GRACE_MS = 10_000;

const SEND_METHODS = new Set<string>(['sendText', 'sendMedia', 'sendLocation', 'sendContact']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const notConnected = (message = 'The connection is not connected') => new AppError('ERR_WAPP_NOT_INITIALIZED', message);

/** statuses a session is left in until an admin acts: not started at boot nor taken over */
const IDLE_STATUSES: TConnectionStatus[] = ['DISCONNECTED', 'TIMEOUT'];

const noop = async () => undefined;

export const createChannelRegistry = (opts: TRegistryOptions): TChannelRegistry => {
  const { db, log } = opts;
  const nodeId = opts.nodeId ?? `node-${randomBytes(6).toString('hex')}`;
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const staleSeconds = Math.max(1, Math.round((opts.staleMs ?? STALE_MS) / 1000));
  const validForMs = Math.max(100, staleSeconds * 1000 - LEASE_MARGIN_MS);
  const metrics = opts.metrics ?? NO_METRICS;
  const sessions = new Map<number, TChannelSession>();
  /** the fenced face of each session of this node: what callers get (counted, lease checked) */
  const guarded = new Map<number, TChannelSession>();
  /** until when (performance.now()) this node may trust its lease of a connection without asking */
  const validUntil = new Map<number, number>();
  /** until when calls on a connection wait for the session a handover is bringing up */
  const handoverUntil = new Map<number, number>();
  /** lease confirmations under way (one per connection) */
  const confirming = new Map<number, Promise<boolean>>();
  /** calls running on this node's sessions, and who waits for them to end (close) */
  let callsInFlight = 0;
  let callsIdle: (() => void)[] = [];
  const states = new Map<number, TConnectionState>();
  const refs = new Map<number, TConnectionRef>();
  /** one operation at a time per connection: a start never overlaps a stop */
  const queues = new Map<number, Promise<unknown>>();
  /** closing: no session starts here any more; closed: none is served either */
  let closing = false;
  let closed = false;
  let closeRun: Promise<void> | undefined;
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
      // a session whose lease another node took reports nothing (its state is the new holder's to tell)
      if (!(await holds(state.connectionId))) return;
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
    guarded.delete(connectionId);
    validUntil.delete(connectionId);
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

  /** takes or renews the lease; granted, its validity runs from the moment it was asked for */
  const mayOwn = async (connectionId: number) => {
    const asked = performance.now();
    const granted = await acquireLease(db, connectionId, nodeId, staleSeconds, opts.singleNode);
    if (granted) validUntil.set(connectionId, asked + validForMs);

    return granted;
  };

  const leaseValid = (connectionId: number) =>
    opts.singleNode || (validUntil.get(connectionId) ?? 0) > performance.now();

  /**
   * The lease of a session of this node, confirmed when its validity ran out: still ours (renewed) or lost
   * (the session stops, not waited for: the caller may be the session's own report). A database that does not
   * answer counts as lost for this call; the session stops at the heartbeat after its validity ended.
   */
  const holds = (connectionId: number): Promise<boolean> => {
    if (!sessions.has(connectionId)) return Promise.resolve(false);
    if (leaseValid(connectionId)) return Promise.resolve(true);
    let pending = confirming.get(connectionId);
    if (!pending) {
      pending = (async () => {
        const asked = performance.now();
        const still = await acquireLease(db, connectionId, nodeId, staleSeconds).catch(() => undefined);
        if (still) {
          if (sessions.has(connectionId)) validUntil.set(connectionId, asked + validForMs);
          return true;
        }
        if (still === false && sessions.has(connectionId)) {
          log.warn({ connectionId }, 'channel lease lost to another node: this session stops here');
          validUntil.delete(connectionId);
          void serial(connectionId, () => stopLocal(connectionId, false));
        }
        return false;
      })().finally(() => confirming.delete(connectionId));
      confirming.set(connectionId, pending);
    }

    return pending;
  };

  const callEnded = () => {
    callsInFlight -= 1;
    if (callsInFlight === 0 && callsIdle.length > 0) {
      const waiting = callsIdle;
      callsIdle = [];
      for (const done of waiting) done();
    }
  };

  /**
   * The face of a session that callers use: every call checks the lease first (a lost one goes to the node
   * that holds it now, over the bus), is counted while it runs (close waits for it), and a send counts its
   * outcome. Anything else (simulator, pairing, drain) is the session's own, through the prototype.
   */
  const fence = (connectionId: number, session: TChannelSession): TChannelSession => {
    const face = Object.create(session) as TChannelSession;
    for (const method of REMOTE_METHODS) {
      const run = session[method] as (...args: unknown[]) => Promise<unknown>;
      Object.defineProperty(face, method, {
        value: async (...args: unknown[]) => {
          if (!(await holds(connectionId))) {
            const request = opts.bus?.request;
            if (!request) throw notConnected('This node no longer holds the connection');
            const elsewhere = remoteSession(connectionId, (call) => request({ ...call, from: nodeId }));
            return (elsewhere[method] as (...a: unknown[]) => Promise<unknown>)(...args);
          }
          callsInFlight += 1;
          try {
            const value = await run.apply(session, args);
            if (SEND_METHODS.has(method)) metrics.send(session.provider, 'sent');
            return value;
          } catch (err) {
            if (SEND_METHODS.has(method)) metrics.send(session.provider, 'failed');
            throw err;
          } finally {
            callEnded();
          }
        },
      });
    }

    return face;
  };

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
      const session = factory(connection, eventsOf(connection.id, owner), { holds: () => holds(connection.id) });
      owner.session = session;
      sessions.set(connection.id, session);
      guarded.set(connection.id, fence(connection.id, session));
      refs.set(connection.id, connection);
      await session.start();
    } catch (err) {
      log.error({ err, connectionId: connection.id }, 'channel session failed to start');
    }
  };

  /** runs a command here when this node owns (or may take) the connection, else asks its owner */
  const dispatch = async (op: TChannelCommand['op'], connectionId: number, connection?: TConnectionRef) => {
    // a stopping node starts nothing (its connections go to the node that takes them over)
    if (closed || closing) return;
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
        if (!guarded.has(connectionId)) guarded.set(connectionId, fence(connectionId, session));
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

  const connectedHere = (connectionId: number) =>
    sessions.has(connectionId) && states.get(connectionId)?.status === 'CONNECTED'
      ? guarded.get(connectionId)
      : undefined;

  const handingOver = (connectionId: number) => (handoverUntil.get(connectionId) ?? 0) > performance.now();

  /**
   * A connection being handed over: each call waits until a session is connected here or answers on
   * another node, up to the handover's end, then runs there.
   */
  const handoverSession = (connectionId: number): TChannelSession => {
    const request = opts.bus?.request;
    const elsewhere = request ? remoteSession(connectionId, (call) => request({ ...call, from: nodeId })) : undefined;
    const face = Object.create(elsewhere ?? {}) as TChannelSession;
    for (const method of REMOTE_METHODS) {
      Object.defineProperty(face, method, {
        value: async (...args: unknown[]) => {
          for (;;) {
            const here = connectedHere(connectionId);
            if (here) return (here[method] as (...a: unknown[]) => Promise<unknown>)(...args);
            if (elsewhere && !sessions.has(connectionId)) {
              try {
                return await (elsewhere[method as TRemoteMethod] as (...a: unknown[]) => Promise<unknown>)(...args);
              } catch (err) {
                if (!(err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED')) throw err;
              }
            }
            if (closed || !handingOver(connectionId)) throw notConnected();
            await sleep(HANDOVER_POLL_MS);
          }
        },
      });
    }

    return face;
  };

  opts.bus?.serve?.(async (call) => {
    if (call.from === nodeId || closed) return null;
    // a lease whose validity ran out is confirmed before this node answers for it
    if (sessions.has(call.connectionId) && !(await holds(call.connectionId))) return null;

    return serveCall(call, (id) => (closed ? undefined : connectedHere(id)));
  });

  opts.bus?.subscribe((command) => {
    if (command.from === nodeId) return;
    if (command.op === 'releasing' || command.op === 'released') {
      if (closed || closing) return;
      // calls on the connection wait for the handover from now on (the holder still serves until it stops)
      handoverUntil.set(command.connectionId, performance.now() + HANDOVER_WAIT_MS);
      // its lease is gone: take it over now rather than at the next heartbeat
      if (command.op === 'released') {
        void takeOver().catch((err) => log.warn({ err }, 'taking over a released connection failed'));
      }
      return;
    }
    if (!sessions.has(command.connectionId)) return;
    void dispatch(command.op, command.connectionId).catch((err) =>
      log.error({ err, command }, 'channel command failed'),
    );
  });

  const takeOver = async () => {
    for (const ref of await listOrphans(db, IDLE_STATUSES, staleSeconds)) {
      if (closed || closing) return;
      if (sessions.has(ref.id)) continue;
      if (await mayOwn(ref.id)) {
        // calls made while the taken-over session connects wait for it
        handoverUntil.set(ref.id, performance.now() + HANDOVER_WAIT_MS);
        log.info({ connectionId: ref.id }, 'channel session taken over');
        await serial(ref.id, () => startLocal(ref));
      }
    }
  };

  const tick = async () => {
    const asked = performance.now();
    let held: Set<number>;
    try {
      held = new Set(await heartbeatLeases(db, nodeId));
    } catch (err) {
      log.warn({ err }, 'channel lease heartbeat failed');
      // the lease can not be renewed: a session whose validity ended stops (another node may take it now)
      for (const id of [...sessions.keys()]) if (!leaseValid(id)) await serial(id, () => stopLocal(id, false));
      return;
    }
    for (const id of held) if (sessions.has(id)) validUntil.set(id, asked + validForMs);
    // a lease lost to another node (this one stalled past the stale time): its session goes
    for (const id of [...sessions.keys()]) {
      // (a lease taken after this heartbeat was asked is not in its answer, and is valid past `asked`'s)
      if (!held.has(id) && (validUntil.get(id) ?? 0) <= asked + validForMs) {
        log.warn({ connectionId: id }, 'channel lease lost to another node: this session stops here');
        await serial(id, () => stopLocal(id, false));
      }
    }
    for (const [id, until] of handoverUntil) if (until <= performance.now()) handoverUntil.delete(id);
    try {
      await takeOver();
    } catch (err) {
      log.warn({ err }, 'channel takeover failed');
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
      if (!opts.singleNode && handingOver(connectionId)) return handoverSession(connectionId);
      const request = opts.bus?.request;
      if (opts.singleNode || !request || sessions.has(connectionId)) throw notConnected();

      return remoteSession(connectionId, (call) => request({ ...call, from: nodeId }));
    },
    // a session whose lease validity ran out is not handed out until the lease is confirmed (asked now)
    local: (connectionId) => {
      if (!sessions.has(connectionId)) return undefined;
      if (!leaseValid(connectionId)) {
        void holds(connectionId);
        return undefined;
      }

      return guarded.get(connectionId);
    },
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
    held: () =>
      [...sessions.entries()]
        .filter(([id]) => leaseValid(id))
        .map(([id, session]) => ({ channel: session.provider, status: states.get(id)?.status ?? 'OPENING' })),
    close: (closeOpts = {}) => {
      closeRun ??= (async () => {
        // no new sessions from now on; this node still serves its sessions' calls until they stop, and the
        // other nodes' calls on them wait through the handover instead of failing in its gap
        closing = true;
        if (!opts.singleNode) {
          for (const id of sessions.keys()) opts.bus?.publish({ op: 'releasing', connectionId: id, from: nodeId });
        }
        await bootRun?.catch(() => undefined);
        if (callsInFlight > 0) {
          const ended = await Promise.race([
            new Promise<boolean>((done) => callsIdle.push(() => done(true))),
            sleep(closeOpts.graceMs ?? CLOSE_GRACE_MS).then(() => false),
          ]);
          if (!ended) log.warn({ calls: callsInFlight }, 'channel calls still running at close');
        }
        closed = true;
        if (timer) clearInterval(timer);
        const ids = [...sessions.keys()];
        await Promise.all(ids.map((id) => serial(id, () => stopLocal(id, false))));
        await releaseAllLeases(db, nodeId).catch((err) => log.warn({ err }, 'releasing channel leases failed'));
        if (!opts.singleNode && ids.length > 0 && opts.bus) {
          for (const id of ids) opts.bus.publish({ op: 'released', connectionId: id, from: nodeId });
          // still on the bus a moment (answering "not here"): a call another node sent before it heard of the
          // release is answered now rather than waiting out the bus's request timeout for a node that left
          await sleep(RELEASE_LINGER_MS);
        }
        if (ids.length > 0) log.info({ connections: ids.length }, 'channel sessions handed over');
      })();

      return closeRun;
    },
  };

  return registry;
};
