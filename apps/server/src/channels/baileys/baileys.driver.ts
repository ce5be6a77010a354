import type { TConnectionStatus } from '@zelo/shared';
import type { Logger } from 'pino';
import { AppError } from '../../http/errors';
import type { TAuthStateStore } from '../auth-state.repo';
import type {
  TChannelEvents,
  TChannelSession,
  TConnectionRef,
  TConnectionState,
  TDriverFactory,
  TMedia,
  TOutboundMedia,
  TSendOptions,
  TSendResult,
} from '../types';
import { CorruptAuthState, loadDbAuthState, type TDbAuthState } from './auth-state';
import {
  CLOSE_REASON,
  type TBaileysKit,
  type TBaileysSocket,
  type TConnectionUpdate,
  type TWAKey,
  type TWAMessage,
} from './baileys.types';
import { isLidJid, isPersonJid, numberOf, toJid, userPart } from './jid';
import { mapInbound, type TLidSeen } from './map-inbound';
import { contactContent, locationContent, mediaContent } from './outbound';

/**
 * WhatsApp Web paired by QR code or by phone-number code, through Baileys (reference §9).
 *
 * - OPENING → `qrcode` (each new QR reported; TIMEOUT after `maxQrs` unscanned) or, after a pairing request,
 *   PAIRING with the 8-character code in `qrcode` → CONNECTED with the phone number.
 * - A dropped connection reconnects with backoff (retries reported); after `maxRetries` it is DISCONNECTED
 *   and waits for "try again". WhatsApp's "logged out" clears the stored auth state (DISCONNECTED); a
 *   restart request reconnects at once; a session replaced by another client stops.
 * - The auth state lives in the database (auth-state.ts); corrupt stored credentials are cleared and the
 *   session reports DISCONNECTED, so the next start shows a new QR code.
 * - Sends check the number once an hour per number (`onWhatsApp`): not an account → ERR_WAPP_INVALID_CONTACT.
 * - Nothing here throws at the server: a failure is a state or an AppError of the call that failed.
 */

export type TBaileysTimings = {
  /** unscanned QR codes before TIMEOUT */
  maxQrs: number;
  /** reconnections in a row before DISCONNECTED */
  maxRetries: number;
  /** wait before reconnection n (1-based) */
  backoffMs: (attempt: number) => number;
  connectTimeoutMs: number;
  qrTimeoutMs: number;
  /** a pairing-code request waits this long for the socket to reach WhatsApp (its first QR) */
  pairingWaitMs: number;
};

export const DEFAULT_BAILEYS_TIMINGS: TBaileysTimings = {
  maxQrs: 5,
  maxRetries: 5,
  backoffMs: (attempt) => Math.min(60_000, 1000 * 2 ** (attempt - 1)),
  connectTimeoutMs: 20_000,
  qrTimeoutMs: 60_000,
  pairingWaitMs: 20_000,
};

/** timings from the environment: BAILEYS_MAX_RETRIES, BAILEYS_BACKOFF_MS (the first wait, doubled each time) */
export const baileysTimingsFromEnv = (env: NodeJS.ProcessEnv = process.env): Partial<TBaileysTimings> => {
  const num = (name: string, min: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(value) && value >= min ? value : undefined;
  };
  const retries = num('BAILEYS_MAX_RETRIES', 0);
  const first = num('BAILEYS_BACKOFF_MS', 1);

  return {
    ...(retries !== undefined ? { maxRetries: retries } : {}),
    ...(first !== undefined ? { backoffMs: (attempt: number) => Math.min(60_000, first * 2 ** (attempt - 1)) } : {}),
  };
};

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

const NUMBER_CHECK_MS = 60 * 60 * 1000;
/** a group's name is asked of WhatsApp at most once an hour, and never holds a message up for long */
const GROUP_NAME_MS = 60 * 60 * 1000;
const GROUP_NAME_WAIT_MS = 3000;
const RECENT_KEYS = 500;

const closeCode = (update: TConnectionUpdate) => {
  const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;

  return error?.output?.statusCode;
};

export const createBaileysDriver =
  (opts: TBaileysDriverOptions): TDriverFactory =>
  (connection: TConnectionRef, events: TChannelEvents): TBaileysSession => {
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
    /** a pairing request waiting for the socket to reach WhatsApp */
    let pairingWaiter: { resolve: (code: string) => void; reject: (err: AppError) => void } | undefined;
    /** ids of what this session sent, so their echoes are never taken for inbound messages */
    const sentIds = new Set<string>();
    const checked = new Map<string, { jid: string | null; at: number }>();
    const groupNames = new Map<string, { name: Promise<string | undefined>; at: number }>();
    /** keys of recent messages, so a quote or a read receipt names the right one */
    const recent = new Map<string, TWAKey & { message?: Record<string, unknown> }>();

    const remember = (key: TWAKey, message?: Record<string, unknown> | null) => {
      if (!key.id) return;
      recent.delete(key.id);
      recent.set(key.id, { ...key, message: message ?? undefined });
      if (recent.size > RECENT_KEYS) recent.delete(recent.keys().next().value as string);
    };

    const report = async (next: TConnectionStatus, extra: Partial<TConnectionState> = {}) => {
      status = next;
      try {
        await events.onState({ connectionId, status: next, retries, ...extra });
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
      for (const event of ['connection.update', 'creds.update', 'messages.upsert', 'messages.update'] as const) {
        current.ev.removeAllListeners(event);
      }
      for (const event of [
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
        return { data: await kit.downloadMedia(message, socket), mimetype, fileName };
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

    /** the group's subject, asked once an hour (concurrent messages share the question); a failure is asked again */
    const groupName = (groupId: string): Promise<string | undefined> => {
      const cached = groupNames.get(groupId);
      if (cached && Date.now() - cached.at < GROUP_NAME_MS) return cached.name;
      const sock = socket;
      if (!sock?.groupMetadata) return cached?.name ?? Promise.resolve(undefined);
      const ask = sock.groupMetadata;
      const name = (async () => {
        let timer: NodeJS.Timeout | undefined;
        const subject = await Promise.race([
          ask(toJid(groupId, true)).then(
            (meta) => meta.subject || undefined,
            () => undefined,
          ),
          new Promise<undefined>((resolve) => {
            timer = setTimeout(() => resolve(undefined), GROUP_NAME_WAIT_MS);
          }),
        ]);
        clearTimeout(timer);
        if (subject === undefined) groupNames.delete(groupId);

        return subject ?? (await cached?.name);
      })();
      groupNames.set(groupId, { name, at: Date.now() });

      return name;
    };

    const inbound = async (message: TWAMessage) => {
      if (message.key.id && sentIds.has(message.key.id)) return;
      const mapped = mapInbound(message, { connectionId, download });
      if (!mapped) return;
      if (mapped.kind === 'update') {
        await events.onMessageUpdate(mapped.update);
        return;
      }
      remember(message.key, message.message);
      const from = await resolveLid(mapped.lid);
      if (from) mapped.message.from = from;
      const participant = await resolveLid(mapped.participantLid);
      if (participant) mapped.message.participant = participant;
      if (mapped.message.isGroup) mapped.message.groupName = await groupName(mapped.message.from);
      await events.onMessage(mapped.message);
    };

    const wire = (sock: TBaileysSocket, state: TDbAuthState) => {
      const mine = () => socket === sock && !stopped;
      sock.ev.on('creds.update', (update) => {
        Object.assign(state.state.creds, update);
        void state.saveCreds().catch((err) => log.error({ err }, 'saving Baileys credentials failed'));
      });
      sock.ev.on('connection.update', (update) => {
        if (!mine()) return;
        void onConnectionUpdate(sock, state, update).catch((err) => log.error({ err }, 'connection update failed'));
      });
      // 'notify': live; 'append': delivered late (WhatsApp held it while this session was away), or our
      // own sends (echoes, skipped by id): a message that arrived while disconnected is not lost
      sock.ev.on('messages.upsert', ({ messages, type }) => {
        if (!mine() || (type !== 'notify' && type !== 'append')) return;
        for (const m of messages) void inbound(m).catch((err) => log.error({ err }, 'inbound message failed'));
      });
      sock.ev.on('messages.update', (updates) => {
        if (!mine()) return;
        for (const { key, update } of updates) {
          if (!key.id) continue;
          if (typeof update.status === 'number') {
            void events.onMessageUpdate({
              connectionId,
              externalId: key.id,
              ack: update.status,
              ...(update.status === 0
                ? { error: { code: 'ERR_SENDING_WAPP_MSG', message: 'WhatsApp refused the message' } }
                : {}),
            });
          }
          // an edit also comes here as `update.message` ({editedMessage}) beside the protocol message of
          // messages.upsert, which carries it (map-inbound): it is not taken twice, nor as a new message
        }
      });
      sock.ev.on('message-receipt.update', (receipts) => {
        if (!mine()) return;
        for (const { key, receipt } of receipts) {
          if (!key.id) continue;
          const ack = receipt.playedTimestamp ? 5 : receipt.readTimestamp ? 4 : receipt.receiptTimestamp ? 3 : 0;
          if (ack) void events.onMessageUpdate({ connectionId, externalId: key.id, ack });
        }
      });
      sock.ev.on('call', (calls) => {
        if (!mine()) return;
        for (const call of calls) {
          if (call.status !== 'offer' || call.isGroup) continue;
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
      const learn = (contacts: { id?: string; lid?: string; jid?: string }[]) => {
        for (const c of contacts) {
          const lid = [c.lid, c.id].find((j) => isLidJid(j));
          const pn = [c.jid, c.id].find((j) => isPersonJid(j));
          if (lid && pn) void state.rememberLid(userPart(lid), numberOf(pn)).catch(() => undefined);
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

    const settlePairing = (outcome: { code: string } | { error: AppError }) => {
      const waiter = pairingWaiter;
      pairingWaiter = undefined;
      if (!waiter) return;
      if ('code' in outcome) waiter.resolve(outcome.code);
      else waiter.reject(outcome.error);
    };

    /** asks WhatsApp for the code of `pairingNumber` on the current socket: PAIRING with the code in `qrcode` */
    const askPairingCode = async (sock: TBaileysSocket, number: string) => {
      let code: string;
      try {
        code = await sock.requestPairingCode(number);
      } catch (err) {
        const error = new AppError('ERR_WAPP_NOT_INITIALIZED', err instanceof Error ? err.message : String(err));
        settlePairing({ error });
        throw error;
      }
      pairingCode = code;
      await report('PAIRING', { qrcode: code });
      settlePairing({ code });

      return code;
    };

    const onConnectionUpdate = async (sock: TBaileysSocket, state: TDbAuthState, update: TConnectionUpdate) => {
      if (update.qr) {
        qrSeen = true;
        // a pairing left unattended times out like an unscanned QR code: each refresh counts
        qrs += 1;
        if (qrs > timings.maxQrs) {
          closeSocket();
          settlePairing({ error: new AppError('ERR_WAPP_NOT_INITIALIZED', 'The pairing timed out') });
          await report('TIMEOUT', { qrcode: '' });
          return;
        }
        if (pairingNumber && !state.state.creds.registered) {
          // the code being typed stays on screen; a new socket asks for a new one
          if (!pairingCode) await askPairingCode(sock, pairingNumber);
          return;
        }
        await report('qrcode', { qrcode: update.qr, retries: qrs });
        return;
      }
      if (update.connection === 'open') {
        retries = 0;
        qrs = 0;
        pairingNumber = undefined;
        pairingCode = undefined;
        await report('CONNECTED', { qrcode: '', phoneNumber: numberOf(sock.user?.id) });
        return;
      }
      if (update.connection !== 'close') return;
      const code = closeCode(update);
      settlePairing({
        error: new AppError('ERR_WAPP_NOT_INITIALIZED', 'WhatsApp could not be reached; try again in a moment'),
      });
      log.info(
        { code, message: (update.lastDisconnect?.error as Error | undefined)?.message },
        'WhatsApp connection closed',
      );
      closeSocket();
      if (stopped) return;
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
      qrSeen = false;
      pairingCode = undefined;
      const sock = kitOrThrow().makeSocket({
        auth: auth.state,
        logger: opts.log.child({ connectionId, module: 'baileys' }, { level: 'warn' }),
        connectTimeoutMs: timings.connectTimeoutMs,
        qrTimeoutMs: timings.qrTimeoutMs,
      });
      socket = sock;
      wire(sock, auth);
    };

    const connected = () => {
      if (status !== 'CONNECTED' || !socket)
        throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The WhatsApp session is not connected');
      return socket;
    };

    /** the jid of a person (checked to be an account, once an hour) or of a group */
    const recipient = async (sock: TBaileysSocket, to: string, isGroup?: boolean) => {
      if (isGroup) return toJid(to, true);
      const jid = await lookup(sock, to);
      if (!jid) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'This number is not a WhatsApp account');
      return jid;
    };

    const lookup = async (sock: TBaileysSocket, to: string) => {
      const number = to.replace(/\D/g, '');
      const cached = checked.get(number);
      if (cached && Date.now() - cached.at < NUMBER_CHECK_MS) return cached.jid;
      let found: { exists: boolean; jid: string; lid?: string }[] | undefined;
      try {
        found = await sock.onWhatsApp(`${number}@s.whatsapp.net`);
      } catch (err) {
        throw new AppError('ERR_WAPP_CHECK_CONTACT', err instanceof Error ? err.message : String(err));
      }
      const hit = found?.find((r) => r.exists);
      const jid = hit ? hit.jid : null;
      checked.set(number, { jid, at: Date.now() });
      if (hit?.lid && isLidJid(hit.lid) && auth) {
        await auth.rememberLid(userPart(hit.lid), numberOf(hit.jid)).catch(() => undefined);
      }

      return jid;
    };

    const quoteOf = (jid: string, externalId?: string) => {
      if (!externalId) return undefined;
      const known = recent.get(externalId);
      const key = known ?? { remoteJid: jid, id: externalId, fromMe: false };

      return {
        key: {
          remoteJid: key.remoteJid ?? jid,
          id: externalId,
          fromMe: Boolean(key.fromMe),
          participant: key.participant ?? undefined,
        },
        message: known?.message ?? { conversation: '' },
      };
    };

    const send = async (
      to: string,
      content: Record<string, unknown>,
      options: TSendOptions = {},
    ): Promise<TSendResult> => {
      const sock = connected();
      const jid = await recipient(sock, to, options.isGroup);
      let sent: TWAMessage | undefined;
      try {
        sent = await sock.sendMessage(jid, content, { quoted: quoteOf(jid, options.quotedExternalId) });
      } catch (err) {
        throw new AppError('ERR_SENDING_WAPP_MSG', err instanceof Error ? err.message : String(err));
      }
      const id = sent?.key?.id;
      if (!sent || !id) throw new AppError('ERR_SENDING_WAPP_MSG', 'WhatsApp gave the message no id');
      remember(sent.key, sent.message);
      sentIds.add(id);
      if (sentIds.size > RECENT_KEYS) sentIds.delete(sentIds.values().next().value as string);

      return { externalId: id, ack: typeof sent.status === 'number' && sent.status > 0 ? sent.status : 1 };
    };

    const session: TBaileysSession = {
      connectionId,
      provider: 'baileys',
      start: async () => {
        stopped = false;
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
        settlePairing({ error: new AppError('ERR_WAPP_NOT_INITIALIZED', 'The session was stopped') });
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
        closeSocket();
        settlePairing({ error: new AppError('ERR_WAPP_NOT_INITIALIZED', 'The session was logged out') });
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
        settlePairing({ error: new AppError('ERR_CONFLICT', 'A newer pairing request replaced this one') });
        // WhatsApp answers a code only on a socket that reached it: at once after its first QR, else at that QR
        if (qrSeen) return askPairingCode(sock, number);

        return new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => {
            if (pairingWaiter?.resolve !== done) return;
            pairingWaiter = undefined;
            reject(new AppError('ERR_WAPP_NOT_INITIALIZED', 'WhatsApp could not be reached; try again in a moment'));
          }, timings.pairingWaitMs);
          timer.unref?.();
          const done = (code: string) => {
            clearTimeout(timer);
            resolve(code);
          };
          pairingWaiter = {
            resolve: done,
            reject: (err) => {
              clearTimeout(timer);
              reject(err);
            },
          };
        });
      },
      sendText: (to, body, options) => send(to, { text: body }, options),
      sendMedia: (to, media: TOutboundMedia, options) => send(to, mediaContent(media), options),
      sendLocation: (to, location, options) => send(to, locationContent(location), options),
      sendContact: (to, vcard, options) => send(to, contactContent(vcard), options),
      editMessage: async (to, externalId, body, options) => {
        const sock = connected();
        const jid = toJid(to, options?.isGroup);
        try {
          await sock.sendMessage(jid, { text: body, edit: { remoteJid: jid, fromMe: true, id: externalId } });
        } catch (err) {
          throw new AppError('ERR_SENDING_WAPP_MSG', err instanceof Error ? err.message : String(err));
        }
      },
      deleteMessage: async (to, externalId, options) => {
        const sock = connected();
        const jid = toJid(to, options?.isGroup);
        const known = recent.get(externalId);
        try {
          await sock.sendMessage(jid, {
            delete: {
              remoteJid: jid,
              fromMe: options?.fromMe ?? true,
              id: externalId,
              participant: known?.participant ?? undefined,
            },
          });
        } catch (err) {
          throw new AppError('ERR_DELETE_WAPP_MSG', err instanceof Error ? err.message : String(err));
        }
      },
      markRead: async (from, externalIds, options) => {
        const sock = connected();
        const jid = toJid(from, options?.isGroup);
        const keys = externalIds.map((id) => {
          const known = recent.get(id);
          return { remoteJid: jid, id, fromMe: false, participant: known?.participant ?? undefined };
        });
        await sock.readMessages(keys);
      },
      checkNumber: async (number) => {
        const jid = await lookup(connected(), number);
        return jid ? numberOf(jid) : null;
      },
      profilePicture: async (number) => {
        try {
          return (await connected().profilePictureUrl(toJid(number), 'image')) ?? null;
        } catch {
          return null;
        }
      },
    };

    return session;
  };
