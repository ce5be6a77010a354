import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { TFarMessage } from '../src/channels/conformance';
import type {
  TAuthState,
  TBaileysEvents,
  TBaileysKit,
  TBaileysSocket,
  TWAKey,
  TWAMessage,
} from '../src/channels/baileys/baileys.types';

/**
 * A stand-in for WhatsApp's servers behind Baileys' socket, for the driver's tests: it emits the events
 * Baileys emits, with the shapes Baileys gives them (connection.update with `qr` then `connection: 'open'`
 * and `creds.update` on pairing, followed by the restart WhatsApp asks for (close 515); messages.upsert
 * `notify`; messages.update with proto.WebMessageInfo.Status 2 → 3 → 4), and keeps what each customer
 * received. Numbers starting with 000 are not WhatsApp accounts.
 */

const ME = '5511999990000';
const id = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;

type TReceived = TFarMessage & { to: string };

export type TFakeWhatsApp = {
  kit: (real: Pick<TBaileysKit, 'initAuthCreds' | 'BufferJSON' | 'appStateSyncKey'>) => TBaileysKit;
  /** the socket of the latest session */
  socket: () => TFakeSocket | undefined;
  /** scans the QR code shown by the latest socket */
  pair: () => Promise<void>;
  customerSends: (message: TWAMessage, media?: Buffer) => void;
  received: (customer: string) => TReceived[];
  customerReads: (customer: string, ids: string[]) => void;
  /**
   * the next sockets fail to reach WhatsApp, closing as Baileys reports it: `timeout` (408 "timed out"),
   * `dns` (408 "WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)") or `closed` (428 "Connection
   * Terminated": the socket closed before any QR code)
   */
  offline: (on: boolean, how?: TOffline) => void;
  pairingRequests: string[];
};

export type TOffline = 'timeout' | 'dns' | 'closed';
const OFFLINE_CLOSES: Record<TOffline, { message: string; statusCode: number }> = {
  timeout: { message: 'timed out', statusCode: 408 },
  dns: { message: 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)', statusCode: 408 },
  closed: { message: 'Connection Terminated', statusCode: 428 },
};

export type TFakeSocket = TBaileysSocket & {
  emit: <E extends keyof TBaileysEvents>(event: E, arg: TBaileysEvents[E]) => void;
  auth: TAuthState;
  ended: boolean;
};

export const createFakeWhatsApp = (opts: { qrIntervalMs?: number; ackStepMs?: number } = {}): TFakeWhatsApp => {
  const qrInterval = opts.qrIntervalMs ?? 50;
  const ackStep = opts.ackStepMs ?? 5;
  const received: TReceived[] = [];
  const media = new Map<string, Buffer>();
  const pairingRequests: string[] = [];
  let latest: TFakeSocket | undefined;
  let unreachable: TOffline | undefined;

  const makeSocket = ({ auth }: { auth: TAuthState }): TFakeSocket => {
    const emitter = new EventEmitter();
    let qrTimer: NodeJS.Timeout | undefined;
    let qrNumber = 0;
    const sock: TFakeSocket = {
      auth,
      ended: false,
      ev: {
        on: (event, listener) => void emitter.on(event, listener as (arg: unknown) => void),
        removeAllListeners: (event) => void emitter.removeAllListeners(event),
      },
      emit: (event, arg) => void emitter.emit(event, arg),
      user: undefined,
      sendMessage: async (jid, content, options) => {
        const to = jid.split('@')[0];
        const edit = content.edit as TWAKey | undefined;
        const del = content.delete as TWAKey | undefined;
        if (edit || del) {
          const target = received.find((m) => m.externalId === (edit ?? del)?.id);
          if (target && edit) Object.assign(target, { body: String(content.text ?? ''), edited: true });
          if (target && del) target.deleted = true;
          return { key: { remoteJid: jid, fromMe: true, id: id() }, message: {} };
        }
        const key = { remoteJid: jid, fromMe: true, id: id() };
        const quoted = (options?.quoted as { key?: TWAKey } | undefined)?.key?.id ?? undefined;
        const entry: TReceived = {
          to,
          externalId: key.id,
          type: 'text',
          body: '',
          ack: 1,
          edited: false,
          deleted: false,
        };
        if (quoted) entry.quotedExternalId = quoted;
        if (typeof content.text === 'string') entry.body = content.text;
        for (const kind of ['image', 'video', 'audio', 'document', 'sticker'] as const) {
          if (content[kind]) {
            entry.type = kind;
            entry.body = String(content.caption ?? '');
            entry.media = { mimetype: String(content.mimetype ?? '') };
          }
        }
        const location = content.location as { degreesLatitude: number; degreesLongitude: number } | undefined;
        if (location) {
          entry.type = 'location';
          entry.location = { latitude: location.degreesLatitude, longitude: location.degreesLongitude };
        }
        const contacts = content.contacts as { contacts: { vcard: string }[] } | undefined;
        if (contacts) {
          entry.type = 'vcard';
          entry.vcard = contacts.contacts[0]?.vcard;
        }
        received.push(entry);
        let ack = 1;
        const step = () => {
          if (sock.ended || ack >= 3) return;
          ack += 1;
          entry.ack = Math.max(entry.ack, ack);
          sock.emit('messages.update', [{ key, update: { status: ack } }]);
          setTimeout(step, ackStep);
        };
        setTimeout(step, ackStep);

        return { key, message: content as Record<string, unknown>, status: 1 };
      },
      onWhatsApp: async (...jids) => jids.map((jid) => ({ jid, exists: !jid.startsWith('000') })),
      profilePictureUrl: async (jid) => `https://pps.whatsapp.net/v/${jid.split('@')[0]}.jpg`,
      readMessages: async () => undefined,
      requestPairingCode: async (phone) => {
        pairingRequests.push(phone);
        // as Baileys does: the number becomes `me` at once, before WhatsApp accepts anything
        auth.creds.me = { id: `${phone}@s.whatsapp.net` };
        sock.emit('creds.update', { me: auth.creds.me });
        return 'ZELO1234';
      },
      logout: async () => {
        sock.emit('connection.update', {
          connection: 'close',
          lastDisconnect: { error: Object.assign(new Error('logged out'), { output: { statusCode: 401 } }) },
        });
      },
      end: () => {
        sock.ended = true;
        if (qrTimer) clearInterval(qrTimer);
      },
    };
    latest = sock;
    setTimeout(() => {
      if (sock.ended) return;
      sock.emit('connection.update', { connection: 'connecting' });
      if (unreachable) {
        const { message, statusCode } = OFFLINE_CLOSES[unreachable];
        sock.emit('connection.update', {
          connection: 'close',
          lastDisconnect: { error: Object.assign(new Error(message), { output: { statusCode } }) },
        });
        return;
      }
      if (auth.creds.account) {
        sock.user = { id: `${ME}:7@s.whatsapp.net` };
        sock.emit('connection.update', { connection: 'open' });
        return;
      }
      if (auth.creds.me) {
        // as Baileys does with `me` but no account (an unfinished pairing by code): it logs in as that
        // number, and WhatsApp refuses
        sock.emit('connection.update', {
          connection: 'close',
          lastDisconnect: { error: Object.assign(new Error('Connection Failure'), { output: { statusCode: 401 } }) },
        });
        return;
      }
      const qr = () => {
        qrNumber += 1;
        sock.emit('connection.update', { qr: `2@fake-qr-${qrNumber},${randomBytes(4).toString('hex')}` });
      };
      qr();
      qrTimer = setInterval(qr, qrInterval);
      qrTimer.unref();
    }, 1);

    return sock;
  };

  return {
    kit: (real) => ({
      ...real,
      makeSocket,
      downloadMedia: async (message) => {
        const data = media.get(String(message.key.id));
        if (!data) throw new Error('media not found on the server');
        return data;
      },
    }),
    socket: () => latest,
    pair: async () => {
      const sock = latest;
      if (!sock) throw new Error('no socket');
      // as WhatsApp does: the credentials get the account (`registered` only when paired by code), then
      // the server asks for a restart
      const byCode = Boolean(sock.auth.creds.me);
      sock.emit('creds.update', {
        me: { id: `${ME}:7@s.whatsapp.net`, name: '~' },
        account: { details: 'CAA=', accountSignatureKey: 'AAA=', accountSignature: 'AAA=', deviceSignature: 'AAA=' },
        ...(byCode ? { registered: true } : {}),
      });
      sock.emit('connection.update', {
        connection: 'close',
        lastDisconnect: { error: Object.assign(new Error('restart required'), { output: { statusCode: 515 } }) },
      });
    },
    customerSends: (message, data) => {
      if (data) media.set(String(message.key.id), data);
      latest?.emit('messages.upsert', { messages: [message], type: 'notify' });
    },
    received: (customer) => received.filter((m) => m.to === customer),
    customerReads: (customer, ids) => {
      for (const m of received) {
        if (m.to === customer && ids.includes(m.externalId)) m.ack = 4;
      }
      latest?.emit(
        'messages.update',
        ids.map((externalId) => ({
          key: { remoteJid: `${customer}@s.whatsapp.net`, fromMe: true, id: externalId },
          update: { status: 4 },
        })),
      );
    },
    offline: (on, how = 'timeout') => {
      unreachable = on ? how : undefined;
    },
    pairingRequests,
  };
};

/** a pino-shaped logger that drops everything (the driver's tests) */
export const silentLog = (() => {
  const log: Record<string, unknown> = {};
  for (const level of ['info', 'warn', 'error', 'debug', 'trace', 'fatal']) log[level] = () => undefined;
  log.child = () => log;
  return log as never;
})();
