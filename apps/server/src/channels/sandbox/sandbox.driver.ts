import { randomBytes, randomInt } from 'node:crypto';
import type { TConnectionStatus, TSandboxEvent, TSandboxOutboxMessage } from '@zelo/shared';
import { AppError } from '../../http/errors';
import type { TAuthStateStore } from '../auth-state.repo';
import type {
  TChannelEvents,
  TChannelSession,
  TConnectionRef,
  TDriverFactory,
  TInboundMessage,
  TInboundType,
  TMedia,
  TOutboundMedia,
  TSendOptions,
  TSendResult,
} from '../types';
import type { TSandboxOutboxStore } from './outbox.repo';

/**
 * The sandbox: a built-in simulated WhatsApp network. A session goes through the real lifecycle
 * (OPENING → qrcode, regenerated every `qrIntervalMs`, TIMEOUT after `maxQrs` unscanned codes; a scan
 * → PAIRING → CONNECTED), keeps its pairing in `channel_auth_state` (so a paired connection comes back
 * CONNECTED after a restart), and plays the far side: what customers received, with acks 1 → 2 → 3 and
 * 4 when the customer reads, kept in `sandbox_outbox` with the business's read marks in `sandbox_read_marks`
 * (outbox.repo.ts), so it survives restarts too. The simulator (HTTP API, customer page) drives the customers
 * through `session.simulator`, which reports through the same events as a real transport.
 *
 * Numbers: 8 to 15 digits; numbers starting with `000` are not WhatsApp accounts (checkNumber → null,
 * sends → ERR_WAPP_INVALID_CONTACT), so the "invalid contact" paths can be tested.
 */

export type TSandboxTimings = {
  /** OPENING before the first QR (or before CONNECTED when paired) */
  openingMs: number;
  /** a QR code's life before the next one */
  qrIntervalMs: number;
  /** unscanned QR codes before TIMEOUT */
  maxQrs: number;
  /** time between ack steps (1 → 2 → 3) of an outbound message */
  ackStepMs: number;
};

export const DEFAULT_SANDBOX_TIMINGS: TSandboxTimings = {
  openingMs: 800,
  qrIntervalMs: 20_000,
  maxQrs: 3,
  ackStepMs: 300,
};

/** timings from the environment (SANDBOX_OPENING_MS, SANDBOX_QR_MS, SANDBOX_QR_COUNT, SANDBOX_ACK_MS) */
export const sandboxTimingsFromEnv = (env: NodeJS.ProcessEnv = process.env): TSandboxTimings => {
  const num = (name: string, fallback: number, min: number) => {
    const value = Number(env[name]);

    return Number.isFinite(value) && value >= min && env[name] !== '' && env[name] !== undefined ? value : fallback;
  };

  return {
    openingMs: num('SANDBOX_OPENING_MS', DEFAULT_SANDBOX_TIMINGS.openingMs, 0),
    qrIntervalMs: num('SANDBOX_QR_MS', DEFAULT_SANDBOX_TIMINGS.qrIntervalMs, 10),
    maxQrs: num('SANDBOX_QR_COUNT', DEFAULT_SANDBOX_TIMINGS.maxQrs, 1),
    ackStepMs: num('SANDBOX_ACK_MS', DEFAULT_SANDBOX_TIMINGS.ackStepMs, 0),
  };
};

/** bounds of what the far side keeps per connection (the customers written to last, their newest messages) */
/** acks of sent messages falling due within this are raised together */
const ACK_SLOT_MS = 10;

export const SANDBOX_LIMITS = {
  customers: 500,
  messagesPerCustomer: 200,
  /** media larger than this is listed without its bytes */
  mediaKeptBytes: 1024 * 1024,
};

export type TSandboxInbound = {
  from: string;
  name?: string;
  avatarUrl?: string;
  type: TInboundType;
  body?: string;
  externalId?: string;
  media?: TMedia;
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: string;
  quotedExternalId?: string;
  fromMe?: boolean;
  group?: { id: string; name?: string };
};

/** the far side of one sandbox connection: what the simulator and the conformance suite drive */
export type TSandboxSimulator = {
  status: () => TConnectionStatus;
  qrcode: () => string;
  phoneNumber: () => string;
  /** pairs the QR on screen; ERR_CONFLICT when no QR is shown or another one is scanned */
  scan: (input?: { qrcode?: string; phoneNumber?: string }) => Promise<{ phoneNumber: string }>;
  /** a customer writes; answers the external id (a given one is a replayed delivery) */
  inbound: (message: TSandboxInbound) => Promise<{ externalId: string }>;
  /** what customers received (one customer, or every one), oldest first, at most `limit` */
  outbox: (to?: string, limit?: number) => Promise<TSandboxOutboxMessage[]>;
  /** the customer reads: ack 4 for the given (or every unread) message; answers the ids that changed */
  read: (to: string, externalIds?: string[]) => Promise<string[]>;
  /** the customer edits or deletes one of their messages */
  edit: (from: string, externalId: string, body: string) => Promise<void>;
  remove: (from: string, externalId: string) => Promise<void>;
  call: (from: string, isVideo?: boolean) => Promise<{ externalId: string }>;
  /** ids of the customer's messages the business marked read */
  readByBusiness: (from: string) => Promise<string[]>;
};

export type TSandboxSession = TChannelSession & { readonly simulator: TSandboxSimulator };

export const isSandboxSession = (session: TChannelSession | undefined): session is TSandboxSession =>
  !!session && session.provider === 'sandbox' && 'simulator' in session;

export type TSandboxDriverOptions = {
  store: TAuthStateStore;
  /** what customers received and what the business read (outbox.repo.ts) */
  outbox: TSandboxOutboxStore;
  timings?: Partial<TSandboxTimings>;
  /** what the simulator page shows live (company-{id}-sandbox) */
  onSandboxEvent?: (connection: TConnectionRef, event: TSandboxEvent) => void;
};

const PAIRING_KEY = 'sandbox:pairing';

export const SANDBOX_NOT_ON_WHATSAPP_PREFIX = '000';

/** digits of a WhatsApp account, or null */
export const sandboxAccount = (number: string): string | null => {
  const digits = String(number).replace(/\D/g, '');
  if (!/^\d{8,15}$/.test(digits) || digits.startsWith(SANDBOX_NOT_ON_WHATSAPP_PREFIX)) return null;

  return digits;
};

const GROUP_ID = /^[\w-]{5,64}$/;

const newId = (prefix: string) => `${prefix}${randomBytes(10).toString('hex').toUpperCase()}`;

const notConnected = () => new AppError('ERR_WAPP_NOT_INITIALIZED', 'The sandbox session is not connected');

export const createSandboxDriver = (options: TSandboxDriverOptions): TDriverFactory => {
  const timings = { ...DEFAULT_SANDBOX_TIMINGS, ...options.timings };

  return (connection: TConnectionRef, events: TChannelEvents): TSandboxSession => {
    const { store, outbox } = options;
    const connectionId = connection.id;
    let status: TConnectionStatus = 'DISCONNECTED';
    let qrcode = '';
    let retries = 0;
    let phoneNumber = '';
    /** bumped by start/stop/logout so late timers of an earlier run do nothing */
    let generation = 0;
    const timers = new Set<NodeJS.Timeout>();
    const avatars = new Map<string, string>();
    /** state reports go out one after the other, in order */
    let reports: Promise<void> = Promise.resolve();

    const later = (ms: number, run: () => void) => {
      const run0 = generation;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (run0 === generation) run();
      }, ms);
      timer.unref?.();
      timers.add(timer);
    };
    const clearTimers = () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      ackSlots.clear();
    };

    const setState = (next: TConnectionStatus, fields: { qrcode?: string; retries?: number } = {}) => {
      status = next;
      qrcode = fields.qrcode ?? '';
      retries = fields.retries ?? retries;
      const state = { connectionId, status, qrcode, retries, ...(phoneNumber ? { phoneNumber } : {}) };
      reports = reports.then(() => events.onState(state)).catch(() => undefined);

      return reports;
    };

    const showQr = (index: number) => {
      const code = `2@${randomBytes(24).toString('base64')},sandbox,${connectionId},${randomBytes(8).toString('hex')}`;
      void setState('qrcode', { qrcode: code, retries: index });
      later(timings.qrIntervalMs, () => {
        if (index + 1 >= timings.maxQrs) void setState('TIMEOUT', { retries: index + 1 });
        else showQr(index + 1);
      });
    };

    const sandboxEvent = (event: TSandboxEvent) => {
      try {
        options.onSandboxEvent?.(connection, event);
      } catch {
        // the simulator's view never breaks a send
      }
    };

    const remember = <T>(map: Map<string, T>, key: string, make: () => T): T => {
      let value = map.get(key);
      if (value === undefined) value = make();
      else map.delete(key);
      map.set(key, value);
      if (map.size > SANDBOX_LIMITS.customers) map.delete(map.keys().next().value as string);

      return value;
    };

    /** raises a message's ack (never lowers it, never on a deleted one), shown and reported; whether it rose */
    const ack = async (to: string, externalId: string, value: number) => {
      const message = await outbox.raiseAck(connection, to, externalId, value);
      if (!message) return false;
      sandboxEvent({ action: 'update', connectionId, message });
      void events.onMessageUpdate({ connectionId, externalId, ack: value });

      return true;
    };

    /**
     * The ack steps 1 → 2 → 3 of sent messages, coalesced: the messages whose step falls due in the same
     * ACK_SLOT_MS are raised with one update, each no sooner than `ackStepMs` after its previous step.
     */
    const ackSlots = new Map<number, { value: number; ids: string[] }[]>();
    const acknowledgeLater = (externalId: string, value: number) => {
      const slot = Math.ceil((Date.now() + timings.ackStepMs) / ACK_SLOT_MS);
      let due = ackSlots.get(slot);
      if (!due) {
        due = [];
        ackSlots.set(slot, due);
        later(Math.max(0, slot * ACK_SLOT_MS - Date.now()), () => {
          const steps = ackSlots.get(slot) ?? [];
          ackSlots.delete(slot);
          for (const step of steps) void raiseStep(step.ids, step.value).catch(() => undefined);
        });
      }
      const step = due.find((s) => s.value === value);
      if (step) step.ids.push(externalId);
      else due.push({ value, ids: [externalId] });
    };
    const raiseStep = async (ids: string[], value: number) => {
      for (const message of await outbox.raiseAcks(connection, ids, value)) {
        sandboxEvent({ action: 'update', connectionId, message });
        void events.onMessageUpdate({ connectionId, externalId: message.externalId, ack: value });
      }
      if (value < 3) for (const id of ids) acknowledgeLater(id, value + 1);
    };

    const assertConnected = () => {
      if (status !== 'CONNECTED') throw notConnected();
    };

    const recipient = (to: string, opts?: { isGroup?: boolean }) => {
      if (opts?.isGroup) {
        if (!GROUP_ID.test(to)) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'Unknown group');
        return to;
      }
      const account = sandboxAccount(to);
      if (!account) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'Not a WhatsApp number');

      return account;
    };

    const deliver = async (
      to: string,
      content: Omit<TSandboxOutboxMessage, 'externalId' | 'to' | 'ack' | 'edited' | 'deleted' | 'timestamp'>,
      opts?: TSendOptions,
    ): Promise<TSendResult> => {
      assertConnected();
      const target = recipient(to, opts);
      const message: TSandboxOutboxMessage = {
        externalId: opts?.messageId ?? newId('SB'),
        to: target,
        ...content,
        ...(opts?.quotedExternalId ? { quotedExternalId: opts.quotedExternalId } : {}),
        ack: 1,
        edited: false,
        deleted: false,
        timestamp: new Date().toISOString(),
      };
      // the same message id again (a retried send): the customer keeps the one copy received
      if (!(await outbox.add(connection, message))) return { externalId: message.externalId, ack: 1 };
      sandboxEvent({ action: 'message', connectionId, message: { ...message } });
      // the network and then the customer's phone acknowledge, in this order
      acknowledgeLater(message.externalId, 2);

      return { externalId: message.externalId, ack: 1 };
    };

    const simulator: TSandboxSimulator = {
      status: () => status,
      qrcode: () => qrcode,
      phoneNumber: () => phoneNumber,
      scan: async (input = {}) => {
        if (status !== 'qrcode') throw new AppError('ERR_CONFLICT', 'No QR code is waiting to be scanned');
        if (input.qrcode !== undefined && input.qrcode !== qrcode) {
          throw new AppError('ERR_CONFLICT', 'This QR code is no longer valid');
        }
        generation += 1;
        clearTimers();
        phoneNumber = sandboxAccount(input.phoneNumber ?? '') ?? `55119${randomInt(10_000_000, 99_999_999)}`;
        await setState('PAIRING', { retries: 0 });
        await store.set(connectionId, PAIRING_KEY, JSON.stringify({ phoneNumber, pairedAt: new Date().toISOString() }));
        await setState('CONNECTED', { retries: 0 });

        return { phoneNumber };
      },
      inbound: async (input) => {
        assertConnected();
        const from = sandboxAccount(input.from);
        if (!from) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'Not a WhatsApp number');
        if (input.group && !GROUP_ID.test(input.group.id)) throw new AppError('ERR_VALIDATION', 'Invalid group id');
        const externalId = input.externalId ?? newId('SBIN');
        if (input.avatarUrl && avatars.get(from) !== input.avatarUrl) {
          remember(avatars, from, () => input.avatarUrl!);
          avatars.set(from, input.avatarUrl);
          await events.onContactUpdate?.({
            connectionId,
            number: from,
            name: input.name,
            profilePicUrl: input.avatarUrl,
          });
        }
        const message: TInboundMessage = {
          connectionId,
          externalId,
          from: input.group ? input.group.id : from,
          fromMe: input.fromMe ?? false,
          pushName: input.name,
          isGroup: !!input.group,
          ...(input.group ? { groupName: input.group.name, participant: from, participantName: input.name } : {}),
          type: input.type,
          body: input.body ?? '',
          ...(input.media ? { media: input.media } : {}),
          ...(input.location ? { location: input.location } : {}),
          ...(input.vcard ? { vcards: [input.vcard] } : {}),
          ...(input.quotedExternalId ? { quotedExternalId: input.quotedExternalId } : {}),
          timestamp: new Date(),
        };
        await events.onMessage(message);

        return { externalId };
      },
      outbox: (to, limit = 100) => outbox.list(connection, to, limit),
      read: async (to, externalIds) => {
        const changed: string[] = [];
        for (const externalId of await outbox.unread(connection, to, externalIds)) {
          if (await ack(to, externalId, 4)) changed.push(externalId);
        }

        return changed;
      },
      edit: async (from, externalId, body) => {
        assertConnected();
        await events.onMessageUpdate({ connectionId, externalId, edit: { body } });
        void from;
      },
      remove: async (from, externalId) => {
        assertConnected();
        await events.onMessageUpdate({ connectionId, externalId, deleted: true });
        void from;
      },
      call: async (from, isVideo = false) => {
        assertConnected();
        const account = sandboxAccount(from);
        if (!account) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'Not a WhatsApp number');
        const externalId = newId('SBCALL');
        await events.onCall({ connectionId, from: account, isVideo, timestamp: new Date(), externalId });

        return { externalId };
      },
      readByBusiness: (from) => outbox.readMarks(connection, from),
    };

    return {
      connectionId,
      provider: 'sandbox',
      simulator,
      start: async () => {
        generation += 1;
        clearTimers();
        const stored = await store.get(connectionId, PAIRING_KEY);
        const pairing = stored ? (JSON.parse(stored) as { phoneNumber?: string }) : undefined;
        phoneNumber = pairing?.phoneNumber ?? '';
        await setState('OPENING', { retries: 0 });
        later(timings.openingMs, () => {
          if (pairing) void setState('CONNECTED', { retries: 0 });
          else showQr(0);
        });
      },
      stop: async () => {
        generation += 1;
        clearTimers();
        status = 'DISCONNECTED';
        await reports;
      },
      logout: async () => {
        generation += 1;
        clearTimers();
        await store.clear(connectionId);
        phoneNumber = '';
        await setState('DISCONNECTED', { retries: 0 });
      },
      sendText: async (to, body, opts) => deliver(to, { type: 'text', body }, opts),
      sendMedia: async (to, media: TOutboundMedia, opts) =>
        deliver(
          to,
          {
            type: 'media',
            body: media.caption ?? '',
            media: {
              mimetype: media.mimetype,
              ...(media.fileName ? { fileName: media.fileName } : {}),
              size: media.data.length,
              ...(media.asVoiceNote ? { asVoiceNote: true } : {}),
              ...(media.data.length <= SANDBOX_LIMITS.mediaKeptBytes
                ? { dataUrl: `data:${media.mimetype};base64,${media.data.toString('base64')}` }
                : {}),
            },
          },
          opts,
        ),
      sendLocation: async (to, location, opts) =>
        deliver(to, { type: 'location', body: location.description ?? '', location: { ...location } }, opts),
      sendContact: async (to, vcard, opts) => deliver(to, { type: 'vcard', body: '', vcard }, opts),
      deleteMessage: async (to, externalId, opts) => {
        assertConnected();
        const target = recipient(to, opts);
        if (!opts?.fromMe) return; // a customer's message is only hidden on our side
        const message = await outbox.remove(connection, target, externalId);
        if (message) sandboxEvent({ action: 'update', connectionId, message });
      },
      editMessage: async (to, externalId, body, opts) => {
        assertConnected();
        const target = recipient(to, opts);
        const message = await outbox.edit(connection, target, externalId, body);
        if (!message) throw new AppError('ERR_FETCH_WAPP_MSG', 'Unknown message');
        sandboxEvent({ action: 'update', connectionId, message });
      },
      markRead: async (from, externalIds, opts) => {
        assertConnected();
        const target = recipient(from, opts);
        if (externalIds.length === 0) return;
        await outbox.markRead(connection, target, externalIds);
        sandboxEvent({ action: 'read', connectionId, from: target, externalIds: [...externalIds] });
      },
      checkNumber: async (number) => {
        assertConnected();

        return sandboxAccount(number);
      },
      profilePicture: async (number) => {
        assertConnected();

        return avatars.get(String(number).replace(/\D/g, '')) ?? null;
      },
    };
  };
};
