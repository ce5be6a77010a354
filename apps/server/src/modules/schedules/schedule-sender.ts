import { createHash, randomUUID } from 'node:crypto';
import type { TMessage } from '@zelo/shared';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { createDueRunner, memo, runPool } from '../../lib/due-runner';
import { isCompanyActive } from '../companies/company-active';
import { readMediaFile, resolveType } from '../messages/media';
import { findByClientId } from '../messages/messages.repo';
import { resendFailedMessage, sendTicketMedia, sendTicketText } from '../messages/send-message';
import { readSetting } from '../settings/settings.service';
import { announceTicket } from '../tickets/ticket-announcer';
import { findOrCreateTicketForInbound } from '../tickets/ticket-lifecycle';
import { companyBasics, contactOfCompany, defaultConnection, findTicketPlain } from '../tickets/tickets.repo';
import {
  claimDue,
  companyHasSchedules,
  failTooLate,
  finishClaim,
  lastConnectionOfContact,
  nextDueAt,
  releaseClaim,
  type TScheduleRow,
} from './schedules.repo';
import { announceSchedule, setScheduleWakeup } from './schedules.service';

/**
 * The schedule sender (issue 12 item 1). Each node keeps one timer armed for the earliest PENDENTE `sendAt`;
 * a change on this node re-arms it at once and a short poll re-arms it for changes made on other nodes, so a
 * schedule leaves within the poll of its time at worst and on its millisecond when this node knows of it.
 * A due row is claimed atomically (PENDENTE → AGENDADA, with this run's token and time, SKIP LOCKED), so two
 * runners never both send one; a claim left by a node that died is taken over after the lease. The message
 * carries the clientId `schedule:<id>`: a claim taken over finds the message already stored and does not
 * store or send it twice (a stored message that never reached the channel is sent once more, as the same row).
 */

export type TScheduleSenderOptions = {
  /** the clock (tests inject one) */
  now?: () => Date;
  /** how often the timer is re-armed from the database and stale claims looked for */
  pollMs?: number;
  /** a claim older than this belongs to a node that died: it is taken over */
  leaseMs?: number;
  /** due longer ago than this (downtime) → ERRO `late` instead of sending */
  lateAfterMs?: number;
  /** rows claimed per statement */
  batch?: number;
  /** sends in flight at once */
  concurrency?: number;
};

export type TScheduleSender = {
  /** one pass: marks what is too late, then claims and sends what is due until nothing is; answers how many ended */
  runDue: () => Promise<number>;
  start: () => void;
  stop: () => Promise<void>;
  /** re-arms the timer (a schedule was created, changed or deleted) */
  wake: () => void;
};

const DAY_MS = 86_400_000;

/** how long a paused company's schedules wait before its standing is read again */
const PAUSE_RECHECK_MS = 60_000;

export const clientIdOfSchedule = (id: number) => `schedule:${id}`;

/** the transport id of a schedule's send, the same on every attempt (the sandbox and WhatsApp Web keep one copy) */
export const messageIdOfSchedule = (id: number) =>
  `3EB0${createHash('sha256').update(`zelo-schedule:${id}`).digest('hex').slice(0, 16).toUpperCase()}`;

type TOutcome = { status: 'ENVIADA' | 'ERRO'; errorMessage: string | null; ticketId: number | null };

const failed = (errorMessage: string, ticketId: number | null = null): TOutcome => ({
  status: 'ERRO',
  errorMessage,
  ticketId,
});

/** the message's state as the schedule's outcome */
const outcomeOf = (message: Pick<TMessage, 'ack' | 'errorCode'>, ticketId: number): TOutcome =>
  message.errorCode ? failed(message.errorCode, ticketId) : { status: 'ENVIADA', errorMessage: null, ticketId };

/** what the sends of one claimed batch share, read once per company */
type TBatchCache = {
  allowed: Map<number, Promise<boolean>>;
  reopenWindow: Map<number, Promise<number>>;
  defaultConnection: Map<number, Promise<number | null>>;
  timeZone: Map<number, Promise<string | undefined>>;
};

const newBatchCache = (): TBatchCache => ({
  allowed: new Map(),
  reopenWindow: new Map(),
  defaultConnection: new Map(),
  timeZone: new Map(),
});

/** the ticket the message is recorded in: the one it was scheduled from when still active on that connection */
const ticketFor = async (
  ctx: TAppContext,
  row: TScheduleRow,
  connectionId: number,
  isGroup: boolean,
  cache: TBatchCache,
) => {
  if (row.ticketId) {
    const ticket = await findTicketPlain(ctx.db, row.companyId, row.ticketId);
    if (
      ticket &&
      ticket.contactId === row.contactId &&
      ticket.whatsappId === connectionId &&
      (ticket.status === 'open' || ticket.status === 'pending')
    ) {
      return ticket.id;
    }
  }
  // the inbox's rules: the active ticket, else the latest closed one reopened within the reopen window, else new
  const found = await findOrCreateTicketForInbound(ctx, {
    companyId: row.companyId,
    connectionId,
    contactId: row.contactId,
    isGroup,
    reopenWindowMinutes: await memo(
      cache.reopenWindow,
      row.companyId,
      async () => Number(await readSetting(ctx.db, row.companyId, 'reopenWindowMinutes')) || 0,
    ),
    timeZone: await memo(
      cache.timeZone,
      row.companyId,
      async () => (await companyBasics(ctx.db, row.companyId))?.timezone,
    ),
  });
  if (found.created || found.reopened) await announceTicket(ctx, row.companyId, found.ticket.id, found.previous);

  return found.ticket.id;
};

const sendOne = async (ctx: TAppContext, row: TScheduleRow, cache: TBatchCache): Promise<TOutcome> => {
  const { companyId } = row;
  if (!(await memo(cache.allowed, companyId, () => companyHasSchedules(ctx.db, companyId)))) {
    return failed('planDisabled');
  }
  const contact = await contactOfCompany(ctx.db, companyId, row.contactId);
  if (!contact) return failed('deletedContact');
  const clientId = clientIdOfSchedule(row.id);
  // a claim taken over from a node that died: the message may be stored already
  const stored = await findByClientId(ctx.db, companyId, clientId);
  if (stored) {
    if (stored.externalId || stored.errorCode) return outcomeOf(stored, stored.ticketId);
    // stored, never confirmed by the channel: sent again as the same row (a transport deduping by id keeps one)
    return outcomeOf(await resendFailedMessage(ctx, stored, messageIdOfSchedule(row.id)), stored.ticketId);
  }
  const connectionId =
    row.whatsappId ??
    (await lastConnectionOfContact(ctx.db, companyId, row.contactId)) ??
    (await memo(
      cache.defaultConnection,
      companyId,
      async () => (await defaultConnection(ctx.db, companyId))?.id ?? null,
    ));
  if (!connectionId) return failed('noConnection');
  const ticketId = await ticketFor(ctx, row, connectionId, contact.isGroup, cache);
  const common = {
    companyId,
    ticketId,
    source: 'agent' as const,
    userId: row.userId,
    clientId,
    messageId: messageIdOfSchedule(row.id),
  };
  try {
    if (row.mediaPath) {
      const data = await readMediaFile(ctx.config, row.mediaPath);
      const type = resolveType(data, row.mediaName ?? row.mediaPath);
      const [message] = await sendTicketMedia(ctx, {
        ...common,
        files: [{ data, mimetype: type.mime, fileName: row.mediaName ?? row.mediaPath }],
        bodies: [row.body],
      });
      return message ? outcomeOf(message, ticketId) : failed('ERR_CREATING_MESSAGE', ticketId);
    }

    return outcomeOf(await sendTicketText(ctx, { ...common, body: row.body }), ticketId);
  } catch (err) {
    if (err instanceof AppError) return failed(err.code, ticketId);
    throw err;
  }
};

export const createScheduleSender = (ctx: TAppContext, opts: TScheduleSenderOptions = {}): TScheduleSender => {
  const now = opts.now ?? (() => new Date());
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const lateAfterMs = opts.lateAfterMs ?? DAY_MS;
  const batch = opts.batch ?? 100;
  const concurrency = opts.concurrency ?? 16;
  /** companies whose sends are paused (inactive or past due), until when they are looked at again */
  const paused = new Map<number, number>();
  const pausedIds = () => {
    const at = now().getTime();
    for (const [companyId, until] of paused) if (until <= at) paused.delete(companyId);

    return [...paused.keys()];
  };

  /** sends one claimed row and records the outcome, unless the claim was lost meanwhile */
  const sendClaimed = async (row: TScheduleRow, token: string, cache: TBatchCache) => {
    if (!(await isCompanyActive(ctx, row.companyId))) {
      // the company's automatic sends pause until it pays (issue 13): the row waits, PENDENTE
      paused.set(row.companyId, now().getTime() + PAUSE_RECHECK_MS);
      await releaseClaim(ctx.db, row.id, token, now());

      return 0;
    }
    let outcome: TOutcome;
    try {
      outcome = await sendOne(ctx, row, cache);
    } catch (err) {
      ctx.log.warn({ err, scheduleId: row.id }, 'schedule not sent');
      outcome = failed(err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG');
    }
    const at = now();
    const done = await finishClaim(ctx.db, row.id, token, {
      status: outcome.status,
      sentAt: outcome.status === 'ENVIADA' ? at : null,
      errorMessage: outcome.errorMessage,
      ticketId: outcome.ticketId ?? row.ticketId,
      updatedAt: at,
    });
    if (done) await announceSchedule(ctx, row.companyId, row.id, 'update');

    return done ? 1 : 0;
  };

  const runDue = async () => {
    const at = now();
    let ended = 0;
    for (const late of await failTooLate(ctx.db, new Date(at.getTime() - lateAfterMs), at, 'late')) {
      await announceSchedule(ctx, late.companyId, late.id, 'update');
      ended += 1;
    }
    for (;;) {
      const token = randomUUID();
      const claimed = await claimDue(ctx.db, {
        now: now(),
        leaseBefore: new Date(now().getTime() - leaseMs),
        token,
        limit: batch,
        skipCompanyIds: pausedIds(),
      });
      if (claimed.length === 0) break;
      const cache = newBatchCache();
      await runPool(claimed, concurrency, async (row) => {
        const n = await sendClaimed(row, token, cache);
        ended += n;
      });
    }

    return ended;
  };

  const runner = createDueRunner({
    pass: runDue,
    nextDueAt: () => nextDueAt(ctx.db, pausedIds()),
    now,
    pollMs,
    log: ctx.log,
    name: 'schedule sender',
  });

  return {
    runDue,
    wake: runner.wake,
    start: () => {
      setScheduleWakeup(ctx, runner.wake);
      runner.start();
    },
    stop: async () => {
      setScheduleWakeup(ctx, () => undefined);
      await runner.stop();
    },
  };
};
