import type { TConnectionError, TConnectionStatus } from '@zelo/shared';
import type { Logger } from 'pino';
import { AppError } from '../../http/errors';
import type { TAuthStateStore } from '../auth-state.repo';
import type {
  TChannelEvents,
  TChannelSession,
  TConnectionRef,
  TConnectionState,
  TDriverFactory,
  TSessionLease,
  TMedia,
  TMessageUpdate,
} from '../types';
import { CorruptAuthState, loadDbAuthState, type TDbAuthState } from './auth-state';
import {
  CLOSE_REASON,
  type TAuthState,
  type TBaileysKit,
  type TBaileysSocket,
  type TConnectionUpdate,
  type TWAMessage,
} from './baileys.types';
import { createGroupNames } from './group-names';
import { isLidJid, numberOf, userPart } from './jid';
import { mapInbound, type TLidSeen } from './map-inbound';
import { createPairingWaiter } from './pairing-waiter';
import { createRecentKeys } from './recent-keys';
import { createSender } from './sender';
import { callOffers, lidPairs, receiptUpdates, statusUpdates } from './socket-events';
import { DEFAULT_BAILEYS_TIMINGS, type TBaileysTimings } from './timings';

export { baileysTimingsFromEnv, DEFAULT_BAILEYS_TIMINGS, type TBaileysTimings } from './timings';

/**
 * WhatsApp Web paired by QR code or by phone-number code, through Baileys (reference §9): the session's
 * lifecycle and what arrives on its socket. Sends are sender.ts; inbound messages map in map-inbound.ts.
 *
 * - OPENING → `qrcode` (each new QR reported; TIMEOUT after `maxQrs` unscanned) or, after a pairing request,
 *   PAIRING with the 8-character code in `qrcode` → CONNECTED with the phone number.
 * - A dropped connection reconnects with backoff (retries reported); after `maxRetries` it is DISCONNECTED
 *   and waits for "try again". A socket that closed before it reached WhatsApp (no QR code, never open: no
 *   DNS, no route, refused, timed out) is reported with `error: 'unreachable'` until one reaches it. WhatsApp's "logged out" clears the stored auth state (DISCONNECTED); a
 *   restart request reconnects at once; a session replaced by another client stops.
 * - The auth state lives in the database (auth-state.ts); corrupt stored credentials are cleared and the
 *   session reports DISCONNECTED, so the next start shows a new QR code.
 * - Inbound messages reach the pipeline in the order WhatsApp delivered them, @lid senders by number.
 * - Nothing here throws at the server: a failure is a state, a log line, or an AppError of the call.
 */

export type TBaileysDriverOptions = {
  store: TAuthStateStore;
  log: Logger;
  /** the library (loaded on first use); tests pass a kit with a socket of their own */
  loadKit: () => Promise<TBaileysKit>;
  timings?: Partial<TBaileysTimings>;
};

/** a Baileys session also pairs by phone-number code */
export type TBaileysSession = TChannelSession & {
  /** asks WhatsApp for a pairing code for this phone number; answers the code (status PAIRING) */
  requestPairing: (phoneNumber: string) => Promise<string>;
};

export const isBaileysSession = (session: TChannelSession | undefined): session is TBaileysSession =>
  !!session && session.provider === 'baileys' && 'requestPairing' in session;

const closeCode = (update: TConnectionUpdate) => {
  const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;

  return error?.output?.statusCode;
};

/** WhatsApp accepted the pairing (by QR or by code) */
const isPaired = (creds: TAuthState['creds']) => Boolean(creds.account || creds.registered);

/** closes WhatsApp decided (it was reached): anything else before a QR code or open means it was not */
const EXPLICIT_CLOSES = new Set<number | undefined>([
  CLOSE_REASON.loggedOut,
  CLOSE_REASON.forbidden,
  CLOSE_REASON.connectionReplaced,
  CLOSE_REASON.multideviceMismatch,
  CLOSE_REASON.restartRequired,
]);

const unreachable = () =>
  new AppError('ERR_WAPP_NOT_INITIALIZED', 'WhatsApp could not be reached; try again in a moment');

export const createBaileysDriver =
  (opts: TBaileysDriverOptions): TDriverFactory =>
  (connection: TConnectionRef, events: TChannelEvents, lease?: TSessionLease): TBaileysSession => {
    const timings = { ...DEFAULT_BAILEYS_TIMINGS, ...opts.timings };
    const connectionId = connection.id;
    const log = opts.log.child({ connectionId, provider: 'baileys' });
    let kit: TBaileysKit | undefined;
    let auth: TDbAuthState | undefined;
    let socket: TBaileysSocket | undefined;
    let status: TConnectionStatus = 'DISCONNECTED';
    let qrs = 0;
    let retries = 0;
    let stopped = true;
    let reconnectTimer: NodeJS.Timeout | undefined;
    let pairingNumber: string | undefined;
    let pairingCode: string | undefined;
    /** the current socket has reached WhatsApp (shown a QR): a pairing code can be asked for */
    let qrSeen = false;
    /** the current socket has heard from WhatsApp (a QR code or open) */
    let reached = false;
    /** why the session is failing, reported with every state until a socket reaches WhatsApp */
    let failure: TConnectionError | undefined;
    const pairing = createPairingWaiter();
    const recent = createRecentKeys();
    const groupName = createGroupNames(() => socket);
    /** inbound messages are prepared one after another, so the pipeline gets them in WhatsApp's order */
    let inboundChain: Promise<void> = Promise.resolve();

    const report = async (next: TConnectionStatus, extra: Partial<TConnectionState> = {}) => {
      status = next;
      try {
        await events.onState({ connectionId, status: next, retries, ...(failure ? { error: failure } : {}), ...extra });
      } catch (err) {
        log.warn({ err }, 'state report failed');
      }
    };

    const closeSocket = () => {
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const current = socket;
      socket = undefined;
      if (!current) return;
      for (const event of [
        'connection.update',
        'creds.update',
        'messages.upsert',
        'messages.update',
        'message-receipt.update',
        'call',
        'contacts.upsert',
        'contacts.update',
        'chats.phoneNumberShare',
      ] as const) {
        current.ev.removeAllListeners(event);
      }
      try {
        current.end(undefined);
      } catch (err) {
        log.debug({ err }, 'socket end failed');
      }
    };

    const download = (message: TWAMessage, mimetype: string, fileName?: string) => async (): Promise<TMedia> => {
      if (!kit || !socket) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The session is not connected');
      try {
        return { data: await kit.downloadMedia(message, socket, log), mimetype, fileName };
      } catch (err) {
        throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', err instanceof Error ? err.message : String(err));
      }
    };

    /** one person, one contact: the number seen with a privacy id is kept, and used when the id comes alone */
    const resolveLid = async (seen: TLidSeen | undefined): Promise<string | undefined> => {
      if (!seen || !auth) return undefined;
      if (seen.number) {
        await auth.rememberLid(seen.lid, seen.number);
        return seen.number;
      }

      return auth.lidToNumber(seen.lid);
    };

    const update = (u: TMessageUpdate) =>
      void events.onMessageUpdate(u).catch((err) => log.error({ err }, 'message update failed'));

    /** maps one message and hands it over; the pipeline's own queue takes it from there */
    const inbound = async (message: TWAMessage) => {
      if (recent.isSent(message.key.id)) return;
      const mapped = mapInbound(message, { connectionId, download });
      if (!mapped) return;
      if (mapped.kind === 'update') {
        update(mapped.update);
        return;
      }
      recent.remember(message.key, message.message);
      const from = await resolveLid(mapped.lid);
      if (from) mapped.message.from = from;
      const participant = await resolveLid(mapped.participantLid);
      if (participant) mapped.message.participant = participant;
      if (mapped.message.isGroup) mapped.message.groupName = await groupName(mapped.message.from);
      void events.onMessage(mapped.message).catch((err) => log.error({ err }, 'inbound message failed'));
    };

    const wire = (sock: TBaileysSocket, state: TDbAuthState) => {
      const mine = () => socket === sock && !stopped;
      sock.ev.on('creds.update', (changes) => {
        Object.assign(state.state.creds, changes);
        void state.saveCreds().catch((err) => log.error({ err }, 'saving Baileys credentials failed'));
      });
      sock.ev.on('connection.update', (change) => {
        if (!mine()) return;
        void onConnectionUpdate(sock, state, change).catch((err) => log.error({ err }, 'connection update failed'));
      });
      // 'notify': live; 'append': delivered late (WhatsApp held it while this session was away), or our
      // own sends (echoes, skipped by id): a message that arrived while disconnected is not lost
      sock.ev.on('messages.upsert', ({ messages, type }) => {
        if (!mine() || (type !== 'notify' && type !== 'append')) return;
        for (const m of messages) {
          inboundChain = inboundChain
            .then(() => inbound(m))
            .catch((err) => log.error({ err, id: m.key?.id }, 'inbound message failed'));
        }
      });
      // an edit also comes in messages.update as `update.message` ({editedMessage}) beside the protocol
      // message of messages.upsert, which carries it (map-inbound): only the status is read here
      sock.ev.on('messages.update', (changes) => {
        if (mine()) for (const u of statusUpdates(connectionId, changes)) update(u);
      });
      sock.ev.on('message-receipt.update', (receipts) => {
        if (mine()) for (const u of receiptUpdates(connectionId, receipts)) update(u);
      });
      sock.ev.on('call', (calls) => {
        if (!mine()) return;
        for (const call of callOffers(calls)) {
          void (async () => {
            const caller = isLidJid(call.from) ? await resolveLid({ lid: userPart(call.from) }) : undefined;
            await events.onCall({
              connectionId,
              from: caller ?? numberOf(call.from),
              isVideo: Boolean(call.isVideo),
              timestamp: call.date instanceof Date ? call.date : new Date(call.date ?? Date.now()),
              externalId: call.id,
            });
          })().catch((err) => log.error({ err }, 'call report failed'));
        }
      });
      const learn = (contacts: Parameters<typeof lidPairs>[0]) => {
        for (const { lid, number } of lidPairs(contacts)) {
          void state.rememberLid(lid, number).catch((err) => log.warn({ err }, 'remembering a @lid failed'));
        }
      };
      sock.ev.on('contacts.upsert', learn);
      sock.ev.on('contacts.update', learn);
      sock.ev.on('chats.phoneNumberShare', ({ lid, jid }) => learn([{ lid, jid }]));
    };

    const scheduleReconnect = async () => {
      // DISCONNECTED shows the reconnections made (maxRetries), waiting for "try again"
      if (retries >= timings.maxRetries) {
        closeSocket();
        await report('DISCONNECTED');
        return;
      }
      retries += 1;
      await report('OPENING');
      reconnectTimer = setTimeout(() => {
        reconnectTimer = undefined;
        if (!stopped) void connect().catch((err) => log.error({ err }, 'reconnect failed'));
      }, timings.backoffMs(retries));
      reconnectTimer.unref?.();
    };

    /** asks WhatsApp for the code of a number on the current socket: PAIRING with the code in `qrcode` */
    const askPairingCode = async (sock: TBaileysSocket, number: string) => {
      let code: string;
      try {
        code = await sock.requestPairingCode(number);
      } catch (err) {
        const error = new AppError('ERR_WAPP_NOT_INITIALIZED', err instanceof Error ? err.message : String(err));
        pairing.settle({ error });
        throw error;
      }
      pairingCode = code;
      await report('PAIRING', { qrcode: code });
      pairing.settle({ code });

      return code;
    };

    const onConnectionUpdate = async (sock: TBaileysSocket, state: TDbAuthState, change: TConnectionUpdate) => {
      if (change.qr) {
        qrSeen = true;
        reached = true;
        failure = undefined;
        // a pairing left unattended times out like an unscanned QR code: each refresh counts
        qrs += 1;
        if (qrs > timings.maxQrs) {
          closeSocket();
          pairing.settle({ error: new AppError('ERR_WAPP_NOT_INITIALIZED', 'The pairing timed out') });
          await report('TIMEOUT', { qrcode: '' });
          return;
        }
        if (pairingNumber && !isPaired(state.state.creds)) {
          // the code being typed stays on screen; a new socket asks for a new one
          if (!pairingCode) await askPairingCode(sock, pairingNumber);
          return;
        }
        await report('qrcode', { qrcode: change.qr, retries: qrs });
        return;
      }
      if (change.connection === 'open') {
        reached = true;
        failure = undefined;
        retries = 0;
        qrs = 0;
        pairingNumber = undefined;
        pairingCode = undefined;
        await report('CONNECTED', { qrcode: '', phoneNumber: numberOf(sock.user?.id) });
        return;
      }
      if (change.connection !== 'close') return;
      const code = closeCode(change);
      pairing.settle({ error: unreachable() });
      log.info(
        { code, message: (change.lastDisconnect?.error as Error | undefined)?.message },
        'WhatsApp connection closed',
      );
      closeSocket();
      if (stopped) return;
      // no QR code and never open: the socket did not get through to WhatsApp's servers
      if (EXPLICIT_CLOSES.has(code)) failure = undefined;
      else if (!reached) failure = 'unreachable';
      if (code === CLOSE_REASON.loggedOut || code === CLOSE_REASON.forbidden) {
        await state.clear();
        await report('DISCONNECTED', { qrcode: '' });
        return;
      }
      if (code === CLOSE_REASON.connectionReplaced) {
        await report('DISCONNECTED', { qrcode: '' });
        return;
      }
      if (code === CLOSE_REASON.multideviceMismatch) {
        // the stored session is unusable: start again unpaired (a new QR code). Not on badSession (500):
        // Baileys gives that code to every unknown stream error, most of them passing, and clearing on it
        // is the forced re-scan users complain of; it is retried like a lost connection
        await state.clear();
        auth = await loadDbAuthState(opts.store, connectionId, kitOrThrow());
      }
      if (code === CLOSE_REASON.restartRequired) {
        await connect();
        return;
      }
      await scheduleReconnect();
    };

    const kitOrThrow = () => {
      if (!kit) throw new Error('Baileys is not loaded');
      return kit;
    };

    const connect = async () => {
      closeSocket();
      if (stopped || !auth) return;
      // a node that lost the lease (it was paused while another took over) must not log in again: WhatsApp
      // would drop the new holder's socket for this one
      if (lease && !(await lease.holds())) {
        log.warn('the lease of this connection is held by another node: not connecting');
        return;
      }
      if (stopped) return;
      qrSeen = false;
      reached = false;
      pairingCode = undefined;
      // a pairing-code request left `me` in the credentials: a new socket would log in as that number,
      // which WhatsApp refuses (logged out); unpaired, it registers again (a new QR, a new code)
      if (auth.state.creds.me && !isPaired(auth.state.creds)) delete auth.state.creds.me;
      const sock = kitOrThrow().makeSocket({
        auth: auth.state,
        logger: opts.log.child({ connectionId, module: 'baileys' }, { level: 'warn' }),
        connectTimeoutMs: timings.connectTimeoutMs,
        qrTimeoutMs: timings.qrTimeoutMs,
        getMessage: async (key) => (key.id ? recent.get(key.id)?.message : undefined),
      });
      socket = sock;
      wire(sock, auth);
    };

    const sender = createSender({
      connected: () => {
        if (status !== 'CONNECTED' || !socket)
          throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The WhatsApp session is not connected');
        return socket;
      },
      recent,
      auth: () => auth,
    });

    return {
      connectionId,
      provider: 'baileys',
      start: async () => {
        stopped = false;
        failure = undefined;
        qrs = 0;
        retries = 0;
        pairingNumber = undefined;
        pairingCode = undefined;
        await report('OPENING', { qrcode: '' });
        try {
          kit ??= await opts.loadKit();
          auth = await loadDbAuthState(opts.store, connectionId, kit);
        } catch (err) {
          if (err instanceof CorruptAuthState) {
            log.warn({ err: err.message }, 'stored Baileys auth state is corrupt: cleared, pair again');
            await opts.store.clear(connectionId);
          } else log.error({ err }, 'Baileys session could not start');
          await report('DISCONNECTED', { qrcode: '' });
          return;
        }
        await connect();
      },
      stop: async () => {
        stopped = true;
        closeSocket();
        pairing.settle({ error: new AppError('ERR_WAPP_NOT_INITIALIZED', 'The session was stopped') });
        // the credentials WhatsApp gave last are on the database before another node may resume the session
        await auth?.saved();
      },
      logout: async () => {
        const sock = socket;
        if (sock && status === 'CONNECTED') {
          try {
            await sock.logout();
          } catch (err) {
            log.warn({ err }, 'WhatsApp logout failed; the local pairing is cleared anyway');
          }
        }
        stopped = true;
        failure = undefined;
        closeSocket();
        pairing.settle({ error: new AppError('ERR_WAPP_NOT_INITIALIZED', 'The session was logged out') });
        pairingNumber = undefined;
        await opts.store.clear(connectionId);
        await report('DISCONNECTED', { qrcode: '' });
      },
      requestPairing: async (phoneNumber) => {
        const number = phoneNumber.replace(/\D/g, '');
        if (status === 'CONNECTED') throw new AppError('ERR_CONFLICT', 'The connection is already paired');
        const sock = socket;
        if (stopped || !sock || !auth) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'Start the connection first');
        pairingNumber = number;
        pairingCode = undefined;
        // WhatsApp answers a code only on a socket that reached it: at once after its first QR, else at that QR
        if (qrSeen) {
          pairing.settle({ error: new AppError('ERR_CONFLICT', 'A newer pairing request replaced this one') });
          return askPairingCode(sock, number);
        }

        return pairing.wait(timings.pairingWaitMs);
      },
      // a stored message's media is downloaded again from its WAMessage (keys and URL) on this session
      restoreMedia: (raw) => {
        const mapped =
          raw && typeof raw === 'object' ? mapInbound(raw as TWAMessage, { connectionId, download }) : null;

        return mapped?.kind === 'message' ? mapped.message.media : undefined;
      },
      ...sender,
    };
  };
