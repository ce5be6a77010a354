import { createHash } from 'node:crypto';
import type { TConnectionStatus } from '@zelo/shared';
import type { Logger } from 'pino';
import { AppError } from '../../http/errors';
import type {
  TChannelEvents,
  TChannelSession,
  TConnectionRef,
  TDriverFactory,
  TMedia,
  TSendOptions,
  TSendResult,
} from '../types';
import type { TDb } from '../../db/client';
import { createCloudApiConfigSource, type TCloudApiConfigSource, type TCloudApiSettings } from './config';
import {
  createGraphClient,
  DEFAULT_GRAPH_RETRY,
  GraphError,
  type TGraphClient,
  type TGraphRetry,
} from './graph-client';
import { createWebhookInbox, type TWebhookInbox } from './inbox';
import {
  contactsMessage,
  locationMessage,
  type TMediaKind,
  mediaKindOf,
  mediaMessage,
  reactionMessage,
  readReceipt,
  textMessage,
} from './outbound';
import { mapWebhook } from './webhook-map';

/**
 * Meta's WhatsApp Business Cloud API (ARCHITECTURE §7). There is nothing to pair: the connection's
 * settings (phone number id, token, app secret) are the pairing. `start` reports OPENING and checks them
 * in the background with `GET /{phone-number-id}`: CONNECTED with the display number, DISCONNECTED when
 * Meta refuses the token (401 / code 190) or the number id, retries counted with backoff while Graph is
 * unreachable. Webhooks are stored by the route (TWebhookInbox) and handed to the pipeline here, by the
 * node that owns the session (`drain`, also run on a timer for rows another node received).
 *
 * What the Cloud API cannot do, and what the driver answers instead:
 * - edit or delete a sent message: ERR_CHANNEL_UNSUPPORTED (a customer's message is only hidden here);
 * - look a number up: `checkNumber` answers the digits of any well-formed international number (8 to 15
 *   digits, not starting with 0), WhatsApp account or not; an unknown number fails at send (131026);
 * - profile pictures: none (null).
 */

export type TCloudApiDriverOptions = {
  log: Logger;
  /** where the settings and the stored webhooks are read; or give `configSource` and `inbox` */
  db?: TDb;
  configSource?: TCloudApiConfigSource;
  inbox?: TWebhookInbox;
  retry?: Partial<TGraphRetry>;
  /** waits between checks of an unreachable Graph API; the last value repeats */
  startBackoffMs?: number[];
  /** failed checks (unreachable Graph) before the session gives up as DISCONNECTED */
  maxStartRetries?: number;
  /** how often the session looks for webhooks another node stored */
  pollMs?: number;
  /** webhooks handed to the pipeline per batch */
  batchSize?: number;
  /** events of a batch handed to the pipeline at once (messages of one contact keep their order) */
  concurrency?: number;
  maxMediaBytes?: number;
};

export type TCloudApiSession = TChannelSession & {
  readonly provider: 'cloud-api';
  /** the settings the session runs with, once loaded (the webhook route checks signatures with them) */
  settings: () => TCloudApiSettings | undefined;
  /** hands the stored webhooks of this connection to the pipeline now */
  drain: () => Promise<void>;
  sendReaction: (to: string, externalId: string, emoji: string) => Promise<TSendResult>;
  sendMediaLink: (
    to: string,
    media: { kind: TMediaKind; link: string; caption?: string; fileName?: string },
    opts?: TSendOptions,
  ) => Promise<TSendResult>;
};

export const isCloudApiSession = (session: TChannelSession | undefined): session is TCloudApiSession =>
  !!session && session.provider === 'cloud-api' && 'drain' in session;

/** a well-formed international number (E.164 digits), or null */
export const cloudApiNumber = (number: string): string | null => {
  const digits = String(number).replace(/\D/g, '');

  return /^[1-9]\d{7,14}$/.test(digits) ? digits : null;
};

/** Graph errors that mean "this recipient can not get messages" */
const INVALID_RECIPIENT = new Set([131026, 131030]);
/** outside the 24-hour customer-service window */
const WINDOW_CLOSED = 131047;
/** dropped after this many takes (a payload that keeps crashing the process) */
const MAX_INBOX_ATTEMPTS = 5;

const sendError = (err: unknown): AppError => {
  if (err instanceof AppError) return err;
  if (!(err instanceof GraphError)) return new AppError('ERR_SENDING_WAPP_MSG', String((err as Error)?.message ?? err));
  const reason = err.details && !err.message.includes(err.details) ? `${err.message} (${err.details})` : err.message;
  if (INVALID_RECIPIENT.has(err.code)) return new AppError('ERR_WAPP_INVALID_CONTACT', reason);
  if (err.code === WINDOW_CLOSED) return new AppError('ERR_WAPP_WINDOW_CLOSED', reason);

  return new AppError('ERR_SENDING_WAPP_MSG', reason);
};

/** the drain waits for this quiet time after the last stored delivery, but never longer than the max */
const SETTLE_MS = 25;
const SETTLE_MAX_MS = 1000;

/** runs `work` over the items, at most `limit` at once, started in their order */
const inOrderLimited = async <T>(items: T[], limit: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
};

const sha256Matches = (data: Buffer, expected: string) => {
  const digest = createHash('sha256').update(data).digest();

  return expected === digest.toString('hex') || expected === digest.toString('base64');
};

export const createCloudApiDriver = (options: TCloudApiDriverOptions): TDriverFactory => {
  const retry: TGraphRetry = { ...DEFAULT_GRAPH_RETRY, ...options.retry };
  const startBackoff = options.startBackoffMs ?? [1000, 2000, 5000, 10_000, 30_000, 60_000];
  const maxStartRetries = options.maxStartRetries ?? 10;
  const pollMs = options.pollMs ?? 2000;
  const batchSize = options.batchSize ?? 100;
  const concurrency = options.concurrency ?? 4;
  const maxMediaBytes = options.maxMediaBytes ?? 100 * 1024 * 1024;
  if (!options.db && (!options.configSource || !options.inbox))
    throw new Error('cloud-api driver: db or sources required');
  const configSource = options.configSource ?? createCloudApiConfigSource(options.db!);
  const inbox = options.inbox ?? createWebhookInbox(options.db!);

  return (connection: TConnectionRef, events: TChannelEvents): TCloudApiSession => {
    const connectionId = connection.id;
    const log = options.log.child({ connectionId, provider: 'cloud-api' });
    let status: TConnectionStatus = 'DISCONNECTED';
    let retries = 0;
    let phoneNumber = '';
    let settings: TCloudApiSettings | undefined;
    let graph: TGraphClient | undefined;
    /** bumped by start/stop/logout so late work of an earlier run does nothing */
    let generation = 0;
    const timers = new Set<NodeJS.Timeout>();
    let reports: Promise<void> = Promise.resolve();
    let draining: Promise<void> | undefined;
    let drainAgain = false;

    const later = (ms: number, run: () => void, repeat = false) => {
      const run0 = generation;
      const timer = (repeat ? setInterval : setTimeout)(() => {
        if (!repeat) timers.delete(timer);
        if (run0 === generation) run();
      }, ms);
      timer.unref?.();
      timers.add(timer);
    };
    const clearTimers = () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    };

    const setState = (next: TConnectionStatus, fields: { retries?: number } = {}) => {
      status = next;
      retries = fields.retries ?? retries;
      const state = { connectionId, status, qrcode: '', retries, ...(phoneNumber ? { phoneNumber } : {}) };
      reports = reports.then(() => events.onState(state)).catch(() => undefined);

      return reports;
    };

    const assertConnected = () => {
      if (status !== 'CONNECTED' || !graph || !settings) {
        throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The Cloud API connection is not connected');
      }

      return { graph, config: settings.config };
    };

    const recipient = (to: string, opts?: { isGroup?: boolean }) => {
      if (opts?.isGroup) throw new AppError('ERR_CHANNEL_UNSUPPORTED', 'The Cloud API does not send to groups');
      const number = cloudApiNumber(to);
      if (!number) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'Not an international phone number');

      return number;
    };

    const call = async <T>(message: Record<string, unknown>): Promise<T> => {
      const { graph: client, config } = assertConnected();
      try {
        return await client.call<T>('POST', `${config.phoneNumberId}/messages`, message);
      } catch (err) {
        throw sendError(err);
      }
    };

    const post = async (message: Record<string, unknown>): Promise<TSendResult> => {
      const answer = await call<{ messages?: { id?: string }[] }>(message);
      const externalId = answer.messages?.[0]?.id;
      if (!externalId) throw new AppError('ERR_SENDING_WAPP_MSG', 'Graph API answered without a message id');

      return { externalId, ack: 1 };
    };

    const upload = async (media: TMedia): Promise<string> => {
      const { graph: client, config } = assertConnected();
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', media.mimetype);
      form.append('file', new Blob([media.data], { type: media.mimetype }), media.fileName || 'file');
      try {
        const answer = await client.call<{ id?: string }>('POST', `${config.phoneNumberId}/media`, form);
        if (!answer.id) throw new AppError('ERR_SENDING_WAPP_MSG', 'Graph API answered an upload without an id');

        return answer.id;
      } catch (err) {
        throw sendError(err);
      }
    };

    /** media id → URL → bytes, with the bearer token (retried by the client and by the pipeline) */
    const download = async (
      mediaId: string,
      hint: { mimetype?: string; fileName?: string; sha256?: string },
    ): Promise<TMedia> => {
      if (!graph) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The Cloud API session is not running');
      const meta = await graph.call<{ url?: string; mime_type?: string; sha256?: string; file_size?: number }>(
        'GET',
        encodeURIComponent(mediaId),
      );
      if (!meta.url) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'Graph API gave no media URL');
      if (typeof meta.file_size === 'number' && meta.file_size > maxMediaBytes) {
        throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', `Media too large (${meta.file_size} bytes)`);
      }
      const file = await graph.download(meta.url, maxMediaBytes);
      const expected = meta.sha256 || hint.sha256;
      if (expected && !sha256Matches(file.data, expected)) {
        throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'Downloaded media does not match its sha256');
      }

      return {
        data: file.data,
        mimetype: meta.mime_type || hint.mimetype || file.mimetype,
        ...(hint.fileName ? { fileName: hint.fileName } : {}),
      };
    };

    /** one batch of stored webhooks: messages first (in order, per contact), then acks, edits, deletes */
    const drainBatch = async (current: TCloudApiSettings): Promise<number> => {
      const rows = await inbox.take(connectionId, batchSize);
      const messages = [];
      const updates = [];
      for (const row of rows) {
        if (row.attempts >= MAX_INBOX_ATTEMPTS) {
          log.error({ inboxId: row.id }, 'cloud-api webhook moved to the failed deliveries after repeated failures');
          await inbox.deadLetter(connectionId, row, 'The webhook could not be handed to the pipeline');
          continue;
        }
        let payload: unknown;
        try {
          payload = JSON.parse(row.payload);
        } catch {
          log.warn({ inboxId: row.id }, 'cloud-api webhook is not JSON: moved to the failed deliveries');
          await inbox.deadLetter(connectionId, row, 'The webhook body is not JSON');
          continue;
        }
        const mapped = mapWebhook(payload, {
          connectionId,
          phoneNumberId: current.config.phoneNumberId,
          lang: current.lang,
          download,
        });
        for (const skip of mapped.skipped) {
          if (skip.reason === 'another phone number id') {
            log.warn({ phoneNumberId: skip.detail }, 'cloud-api webhook for another phone number id ignored');
          } else log.debug(skip, 'cloud-api webhook part skipped');
        }
        messages.push(...mapped.messages);
        updates.push(...mapped.updates);
      }
      // a few at a time: the webhook route's inserts must not queue behind a whole batch of pipeline work
      await inOrderLimited(messages, concurrency, (m) => events.onMessage(m));
      await inOrderLimited(updates, concurrency, (u) => events.onMessageUpdate(u));
      await inbox.done(rows.map((r) => r.id));

      return rows.length;
    };

    const drain = (): Promise<void> => {
      const current = settings;
      if (!current) return Promise.resolve();
      if (draining) {
        drainAgain = true;
        return draining;
      }
      draining = (async () => {
        try {
          // a burst still arriving is stored first: on PGlite (one connection) the pipeline's
          // transactions would otherwise hold the webhook inserts, and Meta its acknowledgements
          const settleEnd = Date.now() + SETTLE_MAX_MS;
          while (inbox.quietMs() < SETTLE_MS && Date.now() < settleEnd) {
            await new Promise((resume) => setTimeout(resume, SETTLE_MS));
          }
          do {
            drainAgain = false;
            while (settings === current && (await drainBatch(current)) === batchSize) {
              // a full batch: more may wait
            }
          } while (drainAgain && settings === current);
        } catch (err) {
          log.warn({ err }, 'cloud-api webhooks not handed over yet');
        } finally {
          draining = undefined;
        }
      })();

      return draining;
    };

    /** loads the settings and checks them with Graph; an unreachable Graph is retried with backoff */
    const connect = async (run: number, attempt: number) => {
      let loaded: Awaited<ReturnType<TCloudApiConfigSource>>;
      try {
        loaded = await configSource(connectionId);
      } catch (err) {
        log.warn({ err }, 'cloud-api settings could not be read');
        loaded = undefined as never;
      }
      if (run !== generation) return;
      if (loaded === null) {
        log.warn('not a cloud-api connection any more');
        await setState('DISCONNECTED', { retries: 0 });
        return;
      }
      if (loaded && 'error' in loaded) {
        log.warn({ reason: loaded.error }, 'cloud-api settings are incomplete: DISCONNECTED');
        await setState('DISCONNECTED', { retries: 0 });
        return;
      }
      if (loaded) {
        settings = loaded;
        graph = createGraphClient(loaded.config, retry);
        // webhooks wait for no check: received ones go to the pipeline, and a poll picks up other nodes' rows
        if (attempt === 0) {
          void drain();
          later(pollMs, () => void drain(), true);
        }
        try {
          const check = createGraphClient(loaded.config, { ...retry, attempts: 1 });
          const number = await check.call<{ display_phone_number?: string }>(
            'GET',
            `${loaded.config.phoneNumberId}?fields=display_phone_number,verified_name`,
          );
          if (run !== generation) return;
          phoneNumber = String(number.display_phone_number ?? '').replace(/\D/g, '');
          await setState('CONNECTED', { retries: 0 });
          return;
        } catch (err) {
          if (run !== generation) return;
          const graphError = err instanceof GraphError ? err : undefined;
          if (graphError && !graphError.retryable) {
            const reason =
              graphError.status === 401 || graphError.code === 190
                ? 'Meta refused the access token'
                : `Meta refused the settings: ${graphError.message}`;
            log.warn(
              { status: graphError.status, code: graphError.code, reason },
              'cloud-api check failed: DISCONNECTED',
            );
            await setState('DISCONNECTED', { retries: 0 });
            return;
          }
          log.warn({ err, attempt: attempt + 1 }, 'cloud-api Graph API unreachable: retrying');
        }
      }
      if (attempt + 1 >= maxStartRetries) {
        await setState('DISCONNECTED', { retries: attempt + 1 });
        return;
      }
      await setState('OPENING', { retries: attempt + 1 });
      later(startBackoff[Math.min(attempt, startBackoff.length - 1)] ?? 60_000, () => void connect(run, attempt + 1));
    };

    const halt = async () => {
      generation += 1;
      clearTimers();
      settings = undefined;
      await draining;
    };

    return {
      connectionId,
      provider: 'cloud-api',
      settings: () => settings,
      drain,
      start: async () => {
        await halt();
        phoneNumber = '';
        await setState('OPENING', { retries: 0 });
        void connect(generation, 0);
      },
      stop: async () => {
        await halt();
        status = 'DISCONNECTED';
        await reports;
      },
      // nothing to unpair remotely: the settings stay on the connection
      logout: async () => {
        await halt();
        await setState('DISCONNECTED', { retries: 0 });
      },
      sendText: async (to, body, opts) => post(textMessage(recipient(to, opts), body, opts?.quotedExternalId)),
      sendMedia: async (to, media, opts) => {
        const number = recipient(to, opts);
        const kind = media.asVoiceNote ? 'audio' : mediaKindOf(media.mimetype);
        const id = await upload(media);

        return post(
          mediaMessage(
            number,
            kind,
            { id },
            { caption: media.caption, fileName: media.fileName, quotedExternalId: opts?.quotedExternalId },
          ),
        );
      },
      sendMediaLink: async (to, media, opts) =>
        post(
          mediaMessage(
            recipient(to, opts),
            media.kind,
            { link: media.link },
            { ...media, quotedExternalId: opts?.quotedExternalId },
          ),
        ),
      sendLocation: async (to, location, opts) =>
        post(locationMessage(recipient(to, opts), location, opts?.quotedExternalId)),
      sendContact: async (to, vcard, opts) => post(contactsMessage(recipient(to, opts), vcard, opts?.quotedExternalId)),
      sendReaction: async (to, externalId, emoji) => post(reactionMessage(recipient(to), externalId, emoji)),
      deleteMessage: async (_to, _externalId, opts) => {
        assertConnected();
        // a customer's message is only hidden on our side
        if (!opts?.fromMe) return;
        throw new AppError('ERR_CHANNEL_UNSUPPORTED', 'The WhatsApp Cloud API can not delete a sent message');
      },
      editMessage: async () => {
        assertConnected();
        throw new AppError('ERR_CHANNEL_UNSUPPORTED', 'The WhatsApp Cloud API can not edit a sent message');
      },
      markRead: async (from, externalIds, opts) => {
        assertConnected();
        recipient(from, opts);
        const lastId = externalIds.at(-1);
        // marking the latest message read marks the earlier ones of the chat too
        if (lastId) await call(readReceipt(lastId));
      },
      checkNumber: async (number) => {
        assertConnected();

        return cloudApiNumber(number);
      },
      profilePicture: async () => {
        assertConnected();

        return null;
      },
    };
  };
};
