import { events, rooms } from '@zelo/shared';
import {
  claimDueDeliveries,
  deleteDeliveries,
  insertDeliveries,
  recordDeliveryFailure,
  requeueWebhook,
  type TClaimedDelivery,
} from '../../channels/deliveries.repo';
import type { TChannelEvents, TInboundMessage } from '../../channels/types';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { createBatcher } from '../batcher';
import { cleanInbound } from '../clean';
import { deserializeInbound, serializeInbound, type TRestoreMedia } from './payload';

/**
 * Nothing a transport delivered is lost (ARCHITECTURE §7.3). What a driver hands to the pipeline is first
 * cleaned (clean.ts) and stored in `inbound_deliveries`, then processed, then deleted:
 *
 * - The rows of messages that arrive together are stored by one multi-row insert, and the processed ones
 *   deleted by one delete (group commits, in arrival order), so the batched pipeline keeps its throughput.
 * - A delivery whose processing throws waits `retryMs · 2^(attempt-1)` and is tried again by the poller;
 *   after `maxAttempts` it stays as `failed` with its error (the company's dead-letter list), announced to
 *   the company's admins. A stored row is claimed for `claimMs` first, so a process that dies while
 *   handling it leaves it to be taken again (after a restart, or by another node).
 * - When the row can not be stored the driver's call fails (`ERR_INBOUND_NOT_STORED`): the sandbox answers
 *   503, the Cloud API keeps its webhook, Baileys logs it.
 * - A replay creates nothing twice: messages are unique per (connection, external id).
 */

export type TDeliveryOptions = {
  retryMs: number;
  maxAttempts: number;
  claimMs: number;
  pollMs: number;
};

export const DEFAULT_DELIVERY_OPTIONS: TDeliveryOptions = {
  retryMs: 5_000,
  maxAttempts: 5,
  claimMs: 60_000,
  pollMs: 5_000,
};

type THandlers = Pick<TChannelEvents, 'onMessage' | 'onMessageUpdate' | 'onCall'> &
  Required<Pick<TChannelEvents, 'onContactUpdate'>>;

export type TDurableInbound = THandlers & {
  /** handles a stored delivery now; answers its error text when it failed again */
  runClaimed: (row: TClaimedDelivery) => Promise<string | null>;
  /** starts the poller of due deliveries */
  start: () => void;
  stop: () => Promise<void>;
  /** one poll now (tests) */
  poll: () => Promise<number>;
};

/** what went wrong, for the admin: the database's own message rather than the query that carried it */
const errorText = (err: unknown): string => {
  if (err instanceof AppError) return `${err.code}: ${err.message}`;
  if (err instanceof Error && err.cause instanceof Error) return errorText(err.cause);
  if (err instanceof Error) return err.message || err.name;

  return String(err);
};

export const createDurableInbound = (
  ctx: TAppContext,
  handlers: THandlers,
  opts: Partial<TDeliveryOptions> & {
    restoreMedia?: TRestoreMedia;
    /** the only process of its database (PGlite): the first poll takes every pending row at once */
    singleNode?: boolean;
  } = {},
): TDurableInbound => {
  const o = { ...DEFAULT_DELIVERY_OPTIONS, ...opts };
  const restoreMedia = opts.restoreMedia ?? (() => undefined);
  const adder = createBatcher<{ connectionId: number; payload: string }, { id: number; companyId: number } | null>({
    maxSize: 500,
    concurrency: 1,
    run: (rows) => insertDeliveries(ctx.db, rows, o.claimMs),
  });
  const remover = createBatcher<number, void>({
    maxSize: 1000,
    concurrency: 1,
    run: async (ids) => {
      await deleteDeliveries(ctx.db, ids);
      return ids.map(() => undefined);
    },
  });

  const failed = async (
    row: Pick<TClaimedDelivery, 'id' | 'companyId' | 'whatsappId'>,
    attempts: number,
    err: unknown,
  ) => {
    const error = errorText(err);
    const dead = attempts >= o.maxAttempts;
    ctx.metrics.inbound(dead ? 'dead_lettered' : 'retried');
    ctx.log.warn({ err, deliveryId: row.id, attempts, dead }, 'inbound delivery failed');
    try {
      await recordDeliveryFailure(ctx.db, row.id, { attempts, error, retryMs: o.retryMs * 2 ** (attempts - 1), dead });
      if (dead) {
        ctx.realtime.to(rooms.admins(row.companyId), events.failedDelivery(row.companyId), {
          action: 'create',
          id: row.id,
        });
      }
    } catch (recordErr) {
      // the row stays claimed and comes back when its claim ends
      ctx.log.error({ err: recordErr, deliveryId: row.id }, 'inbound delivery failure not recorded');
    }

    return error;
  };

  /** the pipeline for one stored message; deleted when done, else recorded */
  const processMessage = async (id: number, companyId: number, m: TInboundMessage, attempts: number) => {
    try {
      await handlers.onMessage(m);
    } catch (err) {
      return failed({ id, companyId, whatsappId: m.connectionId }, attempts + 1, err);
    }
    ctx.metrics.inbound('processed');
    // not waited for: it joins the next delete; a row left by a crash is processed again as a replay (no-op)
    void remover.submit(id).catch((err) => ctx.log.warn({ err, deliveryId: id }, 'processed delivery not deleted'));

    return null;
  };

  const runClaimed = async (row: TClaimedDelivery): Promise<string | null> => {
    if (row.kind === 'webhook') {
      try {
        await requeueWebhook(ctx.db, row);
      } catch (err) {
        return failed(row, row.attempts + 1, err);
      }
      const session = ctx.channels.local(row.whatsappId);
      if (session && 'drain' in session && typeof session.drain === 'function') void session.drain();

      return null;
    }
    let m: TInboundMessage;
    try {
      m = deserializeInbound(row.payload, restoreMedia);
    } catch (err) {
      return failed(row, o.maxAttempts, err);
    }

    return processMessage(row.id, row.companyId, m, row.attempts);
  };

  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<number> | undefined;
  let stopped = true;

  let firstPoll = opts.singleNode ?? false;
  const pollOnce = async () => {
    const rows = await claimDueDeliveries(ctx.db, 100, o.claimMs, firstPoll);
    if (rows.length < 100) firstPoll = false;
    // one at a time: retried messages keep their order
    for (const row of rows) await runClaimed(row);

    return rows.length;
  };

  const poll = (): Promise<number> => {
    polling ??= pollOnce()
      .catch((err) => {
        ctx.log.warn({ err }, 'inbound deliveries poll failed');
        return 0;
      })
      .finally(() => {
        polling = undefined;
      });

    return polling;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void poll().then((n) => {
        // a full claim: more may be due at once
        if (n >= 100) setImmediate(schedule);
        else schedule();
      });
    }, o.pollMs);
    timer.unref?.();
  };

  return {
    onMessage: async (raw) => {
      const m = cleanInbound(raw);
      let stored: { id: number; companyId: number } | null;
      try {
        stored = await adder.submit({ connectionId: m.connectionId, payload: serializeInbound(m) });
      } catch (err) {
        ctx.log.error({ err, connectionId: m.connectionId }, 'inbound delivery not stored');
        throw new AppError('ERR_INBOUND_NOT_STORED', 'The message could not be stored; send it again');
      }
      // no such connection: nothing to keep (the pipeline drops it)
      if (stored === null) return handlers.onMessage(m);
      ctx.metrics.inbound('received');
      await processMessage(stored.id, stored.companyId, m, 0);
    },
    onMessageUpdate: (update) => handlers.onMessageUpdate(cleanInbound(update)),
    onCall: (call) => handlers.onCall(cleanInbound(call)),
    onContactUpdate: (update) => handlers.onContactUpdate(cleanInbound(update)),
    runClaimed,
    poll,
    start: () => {
      if (!stopped) return;
      stopped = false;
      // what an earlier run left (a crash, a restart) is taken at once
      void poll().then(schedule);
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await polling;
    },
  };
};
