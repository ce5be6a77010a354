import { createHash, randomUUID } from 'node:crypto';
import type { TMessage } from '@zelo/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { contacts } from '../../db/schema/contacts';
import { tickets } from '../../db/schema/tickets';
import { activeTicketsOf, newPendingTickets } from '../../inbound/batch.repo';
import { safeTimeZone } from '../../inbound/working-hours';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { createDueRunner, memo, runPool } from '../../lib/due-runner';
import { isCompanyActive } from '../companies/company-active';
import { readMediaFile, resolveType } from '../messages/media';
import { assertServiceWindow } from '../cloud-api/service-window';
import { messagesByClientIds, type TMessageRow } from '../messages/messages.repo';
import { resendFailedMessage, sendTicketMedia } from '../messages/send-message';
import { sendManyOnce, type TManyInput } from '../messages/send-many';
import { applyVariables } from '../messages/variables';
import { readSetting } from '../settings/settings.service';
import { announceTicket, emitTicketUpdated } from '../tickets/ticket-announcer';
import { ticketsByIds } from '../tickets/ticket-list.repo';
import { findOrCreateTicketForInbound, newTicketCode } from '../tickets/ticket-lifecycle';
import {
  companyBasics,
  connectionOfCompany,
  contactOfCompany,
  defaultConnection,
  findTicketPlain,
} from '../tickets/tickets.repo';
import {
  claimDue,
  companyHasSchedules,
  failTooLate,
  finishClaims,
  lastConnectionOfContact,
  nextDueAt,
  releaseClaim,
  type TScheduleRow,
} from './schedules.repo';
import { announceSchedule, announceSchedulesUpdated, setScheduleWakeup } from './schedules.service';

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
  /** sends in flight at once, per lane */
  concurrency?: number;
  /** batches claimed and sent at once (claims keep them apart) */
  lanes?: number;
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
  active: Map<number, Promise<boolean>>;
  reopenWindow: Map<number, Promise<number>>;
  defaultConnection: Map<number, Promise<number | null>>;
  company: Map<number, Promise<Awaited<ReturnType<typeof companyBasics>>>>;
  /** a connection's transport (only the Cloud API has a customer-service window) */
  provider: Map<number, Promise<string | null>>;
};

const newBatchCache = (): TBatchCache => ({
  allowed: new Map(),
  active: new Map(),
  reopenWindow: new Map(),
  defaultConnection: new Map(),
  company: new Map(),
  provider: new Map(),
});

type TContact = typeof contacts.$inferSelect;
type TTicket = typeof tickets.$inferSelect;

/** what `prefetchBatch` read for a batch: contacts by id (null = gone) and tickets by connection and contact */
type TPrefetched = {
  contacts: Map<number, TContact | null>;
  tickets: Map<string, TTicket>;
};

const pairKey = (connectionId: number, contactId: number) => `${connectionId}:${contactId}`;

/**
 * What a claimed batch's rows read before each is prepared, in a few statements per company instead of several per
 * row: the contacts, and the tickets of the rows whose connection is set and that name no ticket — the contact's
 * active ticket on that connection, else a new pending one made with the others in one statement
 * (`newPendingTickets`, shared with the inbound batch; the new ones announced with one read). A contact with a closed
 * ticket within the reopen window, and a group, are left to `ticketFor` (the reopen rules, one by one). Companies whose sends
 * are paused or whose plan has no schedules are not read: their rows end as before.
 */
const prefetchBatch = async (
  ctx: TAppContext,
  rows: TScheduleRow[],
  cache: TBatchCache,
  stored: Map<number, TMessageRow>,
): Promise<TPrefetched> => {
  const found: TPrefetched = { contacts: new Map(), tickets: new Map() };
  const byCompany = new Map<number, TScheduleRow[]>();
  for (const row of rows) {
    if (!stored.has(row.id)) byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row]);
  }
  for (const [companyId, list] of byCompany) {
    if (!(await memo(cache.active, companyId, () => isCompanyActive(ctx, companyId)))) continue;
    if (!(await memo(cache.allowed, companyId, () => companyHasSchedules(ctx.db, companyId)))) continue;
    const contactIds = [...new Set(list.map((r) => r.contactId))];
    const read = await ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.id, contactIds)));
    for (const id of contactIds) found.contacts.set(id, null);
    for (const contact of read) found.contacts.set(contact.id, contact);

    const byConnection = new Map<number, Set<number>>();
    for (const row of list) {
      const contact = found.contacts.get(row.contactId);
      if (!row.whatsappId || row.ticketId || !contact || contact.isGroup) continue;
      byConnection.set(row.whatsappId, (byConnection.get(row.whatsappId) ?? new Set()).add(row.contactId));
    }
    for (const [connectionId, ids] of byConnection) {
      const active = new Map<number, number>();
      for (const t of await activeTicketsOf(ctx.db, companyId, connectionId, [...ids])) active.set(t.contactId, t.id);
      const reopenWindowMinutes = await memo(
        cache.reopenWindow,
        companyId,
        async () => Number(await readSetting(ctx.db, companyId, 'reopenWindowMinutes')) || 0,
      );
      const timeZone = safeTimeZone(
        (await memo(cache.company, companyId, () => companyBasics(ctx.db, companyId)))?.timezone,
      );
      const { active: made, created } = await newPendingTickets(
        ctx.db,
        companyId,
        connectionId,
        [...ids].filter((id) => !active.has(id)),
        { reopenWindowMinutes, code: () => newTicketCode(timeZone) },
      );
      for (const [contactId, ticketId] of made) active.set(contactId, ticketId);
      if (active.size === 0) continue;
      const read = await ctx.db
        .select()
        .from(tickets)
        .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, [...active.values()])));
      for (const ticket of read) found.tickets.set(pairKey(connectionId, ticket.contactId), ticket);
      // the new tickets shown in the inbox before their message, read together as the inbound batch does
      for (const { ticket } of await ticketsByIds(ctx.db, companyId, [...created])) {
        emitTicketUpdated(ctx, companyId, ticket);
      }
    }
  }

  return found;
};

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
      return ticket;
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
    timeZone: (await memo(cache.company, row.companyId, () => companyBasics(ctx.db, row.companyId)))?.timezone,
  });
  if (found.created || found.reopened) await announceTicket(ctx, row.companyId, found.ticket.id, found.previous);

  return found.ticket;
};

/** a text send prepared for the batch (`sendManyOnce`): its input and the ticket it is recorded in */
type TPreparedText = { input: TManyInput; ticketId: number };

/**
 * Everything of one claimed row before its message is stored: the plan, the contact, the connection, the ticket.
 * A text answers what to send with the batch; a file is sent here, one by one; a row that cannot be sent, or whose
 * message a claim taken over finds stored (`stored`, read for the whole batch), answers its outcome.
 */
const prepareOne = async (
  ctx: TAppContext,
  row: TScheduleRow,
  cache: TBatchCache,
  stored: TMessageRow | undefined,
  prefetched: TPrefetched,
): Promise<TOutcome | TPreparedText> => {
  const { companyId } = row;
  if (!(await memo(cache.allowed, companyId, () => companyHasSchedules(ctx.db, companyId)))) {
    return failed('planDisabled');
  }
  const contact = prefetched.contacts.has(row.contactId)
    ? prefetched.contacts.get(row.contactId)
    : await contactOfCompany(ctx.db, companyId, row.contactId);
  if (!contact) return failed('deletedContact');
  const clientId = clientIdOfSchedule(row.id);
  // a claim taken over from a node that died: the message may be stored already
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
  const prefetchedTicket = row.ticketId ? undefined : prefetched.tickets.get(pairKey(connectionId, row.contactId));
  const ticket = prefetchedTicket ?? (await ticketFor(ctx, row, connectionId, contact.isGroup, cache));

  const common = {
    companyId,
    ticketId: ticket.id,
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
      return message ? outcomeOf(message, ticket.id) : failed('ERR_CREATING_MESSAGE', ticket.id);
    }
    // what sendTicketText checks and applies before it stores
    const target = { ...ticket, companyId, contactId: ticket.contactId, whatsappId: ticket.whatsappId };
    const provider = await memo(
      cache.provider,
      connectionId,
      async () => (await connectionOfCompany(ctx.db, companyId, connectionId))?.provider ?? null,
    );
    await assertServiceWindow(ctx.db, target, { provider }); // Cloud API: free-form only within 24 h of the customer
    const company = await memo(cache.company, companyId, () => companyBasics(ctx.db, companyId));
    const body = applyVariables(row.body, {
      contactName: contact.name,
      timeZone: company?.timezone ?? 'America/Sao_Paulo',
      language: company?.language ?? 'pt',
      protocol: ticket.code ?? undefined,
    });

    return {
      ticketId: ticket.id,
      input: {
        companyId,
        ticket: { id: ticket.id, contactId: ticket.contactId, whatsappId: ticket.whatsappId, isGroup: ticket.isGroup },
        to: contact.number,
        source: 'agent',
        userId: row.userId,
        clientId,
        messageId: messageIdOfSchedule(row.id),
        body,
      },
    };
  } catch (err) {
    if (err instanceof AppError) return failed(err.code, ticket.id);
    throw err;
  }
};

/** the stored messages of a batch's schedules (a claim taken over), by schedule id, one read per company */
const storedOfBatch = async (ctx: TAppContext, rows: TScheduleRow[]) => {
  const byCompany = new Map<number, TScheduleRow[]>();
  for (const row of rows) byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row]);
  const stored = new Map<number, TMessageRow>();
  for (const [companyId, list] of byCompany) {
    const byClientId = await messagesByClientIds(
      ctx.db,
      companyId,
      list.map((r) => clientIdOfSchedule(r.id)),
    );
    for (const row of list) {
      const message = byClientId.get(clientIdOfSchedule(row.id));
      if (message) stored.set(row.id, message);
    }
  }

  return stored;
};

export const createScheduleSender = (ctx: TAppContext, opts: TScheduleSenderOptions = {}): TScheduleSender => {
  const now = opts.now ?? (() => new Date());
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const lateAfterMs = opts.lateAfterMs ?? DAY_MS;
  const batch = opts.batch ?? 200;
  const concurrency = opts.concurrency ?? 16;
  const lanes = opts.lanes ?? 2;
  /** companies whose sends are paused (inactive or past due), until when they are looked at again */
  const paused = new Map<number, number>();
  const pausedIds = () => {
    const at = now().getTime();
    for (const [companyId, until] of paused) if (until <= at) paused.delete(companyId);

    return [...paused.keys()];
  };

  /** records the rows' outcomes in one statement, each unless its claim was lost meanwhile; answers how many */
  const record = async (token: string, done: { row: TScheduleRow; outcome: TOutcome }[]) => {
    const at = now();
    const held = await finishClaims(
      ctx.db,
      token,
      done.map(({ row, outcome }) => ({
        id: row.id,
        status: outcome.status,
        sentAt: outcome.status === 'ENVIADA' ? at : null,
        errorMessage: outcome.errorMessage,
        ticketId: outcome.ticketId ?? row.ticketId,
      })),
      at,
    );
    const told = new Map<number, number[]>();
    for (const { row } of done) {
      if (held.has(row.id)) told.set(row.companyId, [...(told.get(row.companyId) ?? []), row.id]);
    }
    for (const [companyId, ids] of told) await announceSchedulesUpdated(ctx, companyId, ids);

    return [...told.values()].reduce((n, ids) => n + ids.length, 0);
  };

  /**
   * Sends a claimed batch: each row prepared (`prepareOne`, `concurrency` at a time; a paused company's rows
   * released), the texts of each company sent together (`sendManyOnce`: stored under their clientIds before the
   * sends, one commit for the batch), then each outcome recorded. Answers how many ended.
   */
  const sendBatch = async (claimed: TScheduleRow[], token: string) => {
    const cache = newBatchCache();
    const stored = await storedOfBatch(ctx, claimed);
    const prefetched = await prefetchBatch(ctx, claimed, cache, stored);
    const texts = new Map<number, { row: TScheduleRow; prepared: TPreparedText }[]>();
    const done: { row: TScheduleRow; outcome: TOutcome }[] = [];
    await runPool(claimed, concurrency, async (row) => {
      if (!(await memo(cache.active, row.companyId, () => isCompanyActive(ctx, row.companyId)))) {
        // the company's automatic sends pause until it pays (issue 13): the row waits, PENDENTE
        paused.set(row.companyId, now().getTime() + PAUSE_RECHECK_MS);
        await releaseClaim(ctx.db, row.id, token, now());
        return;
      }
      const prepared = await prepareOne(ctx, row, cache, stored.get(row.id), prefetched).catch(
        (err: unknown): TOutcome => {
          ctx.log.warn({ err, scheduleId: row.id }, 'schedule not sent');
          return failed(err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG');
        },
      );
      if ('input' in prepared) {
        texts.set(row.companyId, [...(texts.get(row.companyId) ?? []), { row, prepared }]);
        return;
      }
      done.push({ row, outcome: prepared });
    });
    for (const [companyId, list] of texts) {
      const results = await sendManyOnce(
        ctx,
        companyId,
        list.map((t) => t.prepared.input),
      ).catch((error: unknown) => list.map(() => ({ ok: false as const, error })));
      for (const [k, { row, prepared }] of list.entries()) {
        const result = results[k]!;
        if (!result.ok) ctx.log.warn({ err: result.error, scheduleId: row.id }, 'schedule not sent');
        const outcome: TOutcome = result.ok
          ? { status: 'ENVIADA', errorMessage: null, ticketId: prepared.ticketId }
          : failed(result.error instanceof AppError ? result.error.code : 'ERR_SENDING_WAPP_MSG', prepared.ticketId);
        done.push({ row, outcome });
      }
    }

    return record(token, done);
  };

  const runDue = async () => {
    const at = now();
    let ended = 0;
    for (const late of await failTooLate(ctx.db, new Date(at.getTime() - lateAfterMs), at, 'late')) {
      await announceSchedule(ctx, late.companyId, late.id, 'update');
      ended += 1;
    }
    /** one lane: claim a batch, send it, record it, until nothing is due */
    const lane = async () => {
      let sent = 0;
      for (;;) {
        const token = randomUUID();
        const claimed = await claimDue(ctx.db, {
          now: now(),
          leaseBefore: new Date(now().getTime() - leaseMs),
          token,
          limit: batch,
          skipCompanyIds: pausedIds(),
        });
        if (claimed.length === 0) return sent;
        sent += await sendBatch(claimed, token);
      }
    };
    // lanes overlap one batch's round trips to the database with another's, as the campaign sender's do
    for (const sent of await Promise.all(Array.from({ length: lanes }, lane))) ended += sent;

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
