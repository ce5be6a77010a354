import type { Server as HttpServer } from 'node:http';
import { events, rooms } from '@zelo/shared';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { TDb } from '../db/client';
import { type TAuth, resolveAccessToken } from '../http/authenticate';
import { AppError } from '../http/errors';
import type { TSessionCache } from '../modules/auth/session-cache';
import type { TListChange } from '../modules/tickets/list-answers';
import type { TTokenService } from '../modules/auth/tokens';

export type TRealtime = {
  io: Server;
  /**
   * emit an event to one or several rooms (and, with `except`, not to the sockets in those); `change` says what
   * of the company's kept answers it may have changed (list-answers.ts; absent: anything)
   */
  to: (room: string | string[], event: string, payload: unknown, except?: string[], change?: TListChange) => void;
  /** everybody of a company */
  toCompany: (companyId: number, event: string, payload: unknown) => void;
  toUser: (companyId: number, userId: number, event: string, payload: unknown) => void;
  /**
   * one event to the main room of each listed company (and not to the sockets in `except`): what is written
   * for every company (announcements). Room by room, never a broadcast to every socket; the companies' kept
   * lists are not marked changed, since nothing they hold changed.
   */
  toCompanies: (companyIds: number[], event: string, payload: unknown, except?: string[]) => void;
  /** rooms a socket may join on request, decided by later modules (tickets, queues) */
  setJoinPolicy: (policy: TJoinPolicy) => void;
  /** Redis answers a PING (readiness); true without REDIS_URL */
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
};

/** Given the socket's user and a join request, the rooms it may enter. */
export type TJoinPolicy = {
  chatBox?: (auth: TAuth, ticketId: number) => Promise<string[]>;
  notification?: (auth: TAuth) => Promise<string[]>;
  tickets?: (auth: TAuth, status: string) => Promise<string[]>;
};

type TSocketData = { auth: TAuth };

const PING_MS = 18_000;
/** rooms named in one emit of `toCompanies` (each emit is one adapter message) */
const ROOMS_PER_EMIT = 1000;

/** the company of a `company-{id}-…` room (every company room is named so: rooms in @zelo/shared) */
export const companyOfRoom = (room: string) => {
  if (!room.startsWith('company-')) return undefined;
  const id = Number.parseInt(room.slice(8), 10);

  return Number.isInteger(id) && id > 0 ? id : undefined;
};

const defaultPolicy: Required<TJoinPolicy> = {
  chatBox: async () => [],
  notification: async (auth) => (auth.isAdmin ? [rooms.notification(auth.companyId)] : []),
  tickets: async (auth, status) => (auth.isAdmin ? [rooms.status(auth.companyId, status)] : []),
};

export const createRealtime = async (
  server: HttpServer,
  deps: {
    db: TDb;
    tokens: TTokenService;
    sessions: TSessionCache;
    redisUrl?: string;
    /** the adapter's channel prefix (REDIS_PREFIX) */
    redisPrefix?: string;
    onPresence?: (auth: TAuth, online: boolean) => Promise<void>;
    /**
     * a company's rooms are about to hear of a change (called before the event leaves, once per company), with
     * what it may have changed (absent: anything)
     */
    onAnnounce?: (companyId: number, change?: TListChange) => void;
  },
): Promise<TRealtime> => {
  const io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, TSocketData>(server, {
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    pingInterval: PING_MS,
    pingTimeout: PING_MS,
    serveClient: false,
  });
  const redisClients: Redis[] = [];
  if (deps.redisUrl) {
    // loaded only when REDIS_URL is set
    const [{ Redis }, { createAdapter }] = await Promise.all([import('ioredis'), import('@socket.io/redis-adapter')]);
    const pub = new Redis(deps.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    redisClients.push(pub, sub);
    // requests between nodes (fetchSockets, channel calls: a send may take its transport's retries) wait 30 s
    io.adapter(createAdapter(pub, sub, { requestsTimeout: 30_000, key: deps.redisPrefix ?? 'socket.io' }));
  }
  let policy: Required<TJoinPolicy> = { ...defaultPolicy };

  io.use(async (socket, next) => {
    const raw = socket.handshake.auth?.token ?? socket.handshake.query?.token;
    try {
      socket.data.auth = await resolveAccessToken(deps, typeof raw === 'string' ? raw : undefined);
      next();
    } catch (err) {
      const code = err instanceof AppError ? err.code : 'ERR_NOT_AUTHENTICATED';
      const refusal = new Error(code) as Error & { data?: unknown };
      refusal.data = { error: code };
      next(refusal);
    }
  });

  io.on('connection', async (socket: Socket) => {
    const auth = (socket.data as TSocketData).auth;
    const base = [rooms.main(auth.companyId), rooms.user(auth.companyId, auth.userId), `session-${auth.sessionId}`];
    if (auth.isAdmin) base.push(rooms.admins(auth.companyId));
    if (auth.isSuper) base.push(rooms.supers());
    await socket.join(base);

    // What each join request put the socket in ('tickets:open', 'chatBox:12', 'notification'), so that a
    // leave takes out what its join added and nothing another join or the base still holds. Joins and
    // leaves of a socket run in the order they came: a leave sent right after its join waits for it.
    const held = new Map<string, Set<string>>();
    let chain: Promise<void> = Promise.resolve();
    const inOrder = (work: () => Promise<void>) => {
      chain = chain.then(work).catch(() => undefined);
    };
    const joinAll = (key: string, list: () => Promise<string[]>) =>
      inOrder(async () => {
        let allowed: string[];
        try {
          allowed = await list();
        } catch {
          return; // a refused or failed join leaves the socket where it was
        }
        // a socket gone meanwhile joins nothing (the adapter would keep its id in the rooms)
        if (allowed.length === 0 || socket.disconnected) return;
        const joined = held.get(key) ?? new Set<string>();
        for (const room of allowed) joined.add(room);
        held.set(key, joined);
        await socket.join(allowed);
      });
    const leaveAll = (key: string) =>
      inOrder(async () => {
        const joined = held.get(key);
        if (!joined) return;
        held.delete(key);
        const kept = new Set(base);
        for (const other of held.values()) for (const room of other) kept.add(room);
        await Promise.all([...joined].filter((room) => !kept.has(room)).map((room) => socket.leave(room)));
      });
    const ticketId = (value: unknown) => {
      const id = Number(value);

      return Number.isInteger(id) && id > 0 ? id : null;
    };
    const isStatus = (value: unknown): value is string => value === 'open' || value === 'pending' || value === 'closed';

    socket.on('joinChatBox', (value: unknown) => {
      const id = ticketId(value);
      if (id) joinAll(`chatBox:${id}`, () => policy.chatBox(auth, id));
    });
    socket.on('leaveChatBox', (value: unknown) => {
      const id = ticketId(value);
      if (id) leaveAll(`chatBox:${id}`);
    });
    socket.on('joinNotification', () => joinAll('notification', () => policy.notification(auth)));
    socket.on('joinTickets', (status: unknown) => {
      if (isStatus(status)) joinAll(`tickets:${status}`, () => policy.tickets(auth, status));
    });
    socket.on('leaveTickets', (status: unknown) => {
      if (isStatus(status)) leaveAll(`tickets:${status}`);
    });
    socket.on('userStatus', () => void deps.onPresence?.(auth, true));
    socket.on('disconnect', () => void deps.onPresence?.(auth, false));
    void deps.onPresence?.(auth, true);
    socket.emit('ready');
  });

  const announced = (room: string | string[], change?: TListChange) => {
    if (!deps.onAnnounce) return;
    if (typeof room === 'string') {
      const companyId = companyOfRoom(room);
      if (companyId !== undefined) deps.onAnnounce(companyId, change);
      return;
    }
    const seen = new Set<number>();
    for (const r of room) {
      const companyId = companyOfRoom(r);
      if (companyId !== undefined && !seen.has(companyId)) {
        seen.add(companyId);
        deps.onAnnounce(companyId, change);
      }
    }
  };
  const to: TRealtime['to'] = (room, event, payload, except, change) => {
    announced(room, change);
    (except?.length ? io.to(room).except(except) : io.to(room)).emit(event, payload);
  };

  return {
    io: io as unknown as Server,
    to,
    toCompany: (companyId, event, payload) => to(rooms.main(companyId), event, payload),
    toUser: (companyId, userId, event, payload) => to(rooms.user(companyId, userId), event, payload),
    toCompanies: (companyIds, event, payload, except) => {
      // a socket is in one company's main room, so the batches never reach a socket twice
      for (let i = 0; i < companyIds.length; i += ROOMS_PER_EMIT) {
        const batch = companyIds.slice(i, i + ROOMS_PER_EMIT).map((id) => rooms.main(id));
        (except?.length ? io.to(batch).except(except) : io.to(batch)).emit(event, payload);
      }
    },
    setJoinPolicy: (next) => {
      policy = { ...policy, ...next } as Required<TJoinPolicy>;
    },
    // the publisher (the subscriber is in subscribe mode, where PING answers differently)
    ping: async () => (redisClients[0] ? (await redisClients[0].ping()) === 'PONG' : true),
    close: async () => {
      await io.close();
      await Promise.all(redisClients.map((c) => c.quit().catch(() => undefined)));
    },
  };
};

export { events, rooms };
