import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { afterFirstScreen } from '../app/firstScreen';
import { refreshAccessToken } from './http';
import { endSession, getToken } from './session';

/** spec 1 §9: the user status message every 300000 ms. */
export const USER_STATUS_INTERVAL_MS = 300_000;

// biome-ignore lint/suspicious/noExplicitAny: payloads differ per event; each screen narrows its own
type Handler = (payload: any) => void;
type Join = { event: string; arg?: unknown };

let socket: Socket | null = null;
let ready = false;
let statusTimer: ReturnType<typeof setInterval> | null = null;
const handlers = new Map<string, Set<Handler>>();
/** rooms asked for by the screens, re-emitted after every `ready` (first connection and reconnections) */
const joins = new Map<string, Join>();

const joinKey = ({ event, arg }: Join) => `${event}:${JSON.stringify(arg ?? null)}`;

const emitJoin = (join: Join) => {
  if (join.arg === undefined) {
    socket?.emit(join.event);
  } else {
    socket?.emit(join.event, join.arg);
  }
};

const dispatch = (event: string, payload: unknown) => {
  for (const handler of handlers.get(event) ?? []) {
    handler(payload);
  }
};

const isExpiredError = (message: string) => /SESSION_EXPIRED|jwt expired|expired/i.test(message);
const isRefusedError = (message: string) => /NOT_AUTHENTICATED|SESSION_REVOKED|invalid token/i.test(message);

/** counts connect/disconnect calls: a connection whose library arrives after a disconnect is not opened */
let generation = 0;

/** called at every `ready` (the first connection and every reconnection) */
const readyListeners = new Set<() => void>();

/**
 * Runs `listener` at every `ready`: what the screens read over HTTP before the rooms were joined (or while the
 * connection was down) may have missed events, so the app reads it again then (App.tsx refetches its queries).
 */
export const onSocketReady = (listener: () => void) => {
  readyListeners.add(listener);

  return () => {
    readyListeners.delete(listener);
  };
};

/**
 * Opens the connection to the same origin (`/socket.io`), token in the handshake `auth` (read at every attempt,
 * so a refreshed token is used on reconnection). Joins wait for the server's `ready` event. The socket.io client
 * is its own chunk, loaded once the first screen has shown (on the inbox: its first list, app/firstScreen.ts), so
 * the inbox's first load does not carry it (issue 23's budget); the rooms its screens joined meanwhile are joined
 * at `ready` as after any reconnection, and `onSocketReady`'s listeners read again what was read before.
 */
export const connectSocket = () => {
  if (socket) {
    return;
  }
  const mine = ++generation;
  void afterFirstScreen()
    .then(() => import('socket.io-client'))
    .then(({ io }) => {
      if (mine !== generation || socket) {
        return;
      }
      open(io);
    });
};

const open = (io: typeof import('socket.io-client').io) => {
  const s = io({
    path: '/socket.io',
    auth: (cb) => cb({ token: getToken() }),
    transports: ['websocket', 'polling'],
  });
  socket = s;

  s.on('ready', () => {
    ready = true;
    joins.forEach(emitJoin);
    s.emit('userStatus');
    for (const listener of readyListeners) listener();
  });
  s.on('disconnect', (reason) => {
    ready = false;
    // the server closed the connection (e.g. a token check): connect again, the handshake reads the current token
    if (reason === 'io server disconnect') {
      s.connect();
    }
  });
  s.on('connect_error', (err) => {
    if (s.active) {
      return; // a network problem: socket.io retries on its own
    }
    if (isExpiredError(err.message)) {
      refreshAccessToken()
        .then(() => s.connect())
        .catch(() => endSession());
    } else if (isRefusedError(err.message)) {
      endSession();
    } else {
      setTimeout(() => s.connect(), 5000);
    }
  });
  s.onAny((event: string, payload: unknown) => dispatch(event, payload));

  statusTimer = setInterval(() => {
    if (ready) {
      s.emit('userStatus');
    }
  }, USER_STATUS_INTERVAL_MS);
};

export const disconnectSocket = () => {
  generation += 1;
  if (statusTimer) {
    clearInterval(statusTimer);
    statusTimer = null;
  }
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  ready = false;
  joins.clear();
};

export const getSocket = () => socket;

/**
 * Joins a room (`joinRoom('joinTickets', 'open')`, `joinRoom('joinChatBox', ticketId)`, `joinRoom('joinNotification')`)
 * and keeps it across reconnections. The returned function leaves it (`leaveTickets`, `leaveChatBox`, ... per
 * `leaveEvent`, when given).
 */
export const joinRoom = (event: string, arg?: unknown, leaveEvent?: string) => {
  const join = { event, arg };
  const key = joinKey(join);
  joins.set(key, join);
  if (socket && ready) {
    emitJoin(join);
  }

  return () => {
    joins.delete(key);
    if (leaveEvent && socket && ready) {
      emitJoin({ event: leaveEvent, arg });
    }
  };
};

/** Subscribes a handler to a server event (`company-1-user`…) while the component is mounted. */
export const useSocketEvent = (event: string, handler: Handler) => {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!event) {
      return;
    }
    const listener: Handler = (payload) => ref.current(payload);
    let set = handlers.get(event);
    if (!set) {
      set = new Set();
      handlers.set(event, set);
    }
    set.add(listener);

    return () => {
      set.delete(listener);
      if (set.size === 0) {
        handlers.delete(event);
      }
    };
  }, [event]);
};

/** Keeps a room joined while the component is mounted. */
export const useSocketJoin = (event: string, arg?: unknown, leaveEvent?: string) => {
  const argKey = JSON.stringify(arg ?? null);
  useEffect(() => {
    const parsed = JSON.parse(argKey) as unknown;

    return joinRoom(event, parsed === null ? undefined : parsed, leaveEvent);
  }, [event, argKey, leaveEvent]);
};
