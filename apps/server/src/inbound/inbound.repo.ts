import { and, asc, eq, getTableColumns, isNotNull, isNull, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { rebuildContactTicketsWords } from '../modules/tickets/ticket-search.repo';
import { whatsappQueues, whatsapps } from '../db/schema/connections';
import { contacts } from '../db/schema/contacts';
import { companies } from '../db/schema/core';
import { messages } from '../db/schema/messages';
import { queueOptions, queues } from '../db/schema/queues';
import { ticketTrackings, tickets, userRatings } from '../db/schema/tickets';

/**
 * The inbound pipeline's own queries: what the automation reads and changes on a ticket (under a row
 * lock), ratings, contact refreshes, call entries and the housekeeping scans. Every query is scoped by
 * company except the periodic scans, which read across companies and then act per company.
 */

const connectionQuery = preparedQuery(
  (db, name) =>
    db
      .select()
      .from(whatsapps)
      .where(eq(whatsapps.id, sql.placeholder('connectionId')))
      .prepare(name),
  'inbound_connection',
);

export const connectionForInbound = async (db: TDbOrTx, connectionId: number) =>
  (await connectionQuery(db).execute({ connectionId }))[0] ?? null;

export type TConnectionRow = NonNullable<Awaited<ReturnType<typeof connectionForInbound>>>;

const companyQuery = preparedQuery(
  (db, name) =>
    db
      .select({
        id: companies.id,
        language: companies.language,
        timezone: companies.timezone,
        schedules: companies.schedules,
      })
      .from(companies)
      .where(eq(companies.id, sql.placeholder('companyId')))
      .prepare(name),
  'inbound_company',
);

export const companyForInbound = async (db: TDbOrTx, companyId: number) =>
  (await companyQuery(db).execute({ companyId }))[0] ?? null;

/** the queues a connection's menu offers, with what the bot needs of them */
export const queuesOfConnection = async (db: TDbOrTx, companyId: number, connectionId: number) =>
  db
    .select({
      id: queues.id,
      name: queues.name,
      orderQueue: queues.orderQueue,
      greetingMessage: queues.greetingMessage,
      outOfHoursMessage: queues.outOfHoursMessage,
      schedules: queues.schedules,
      integrationId: queues.integrationId,
    })
    .from(whatsappQueues)
    .innerJoin(queues, and(eq(queues.id, whatsappQueues.queueId), eq(queues.companyId, companyId)))
    .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, connectionId)))
    .orderBy(asc(queues.orderQueue), asc(queues.id));

export const queueForBot = async (db: TDbOrTx, companyId: number, queueId: number) =>
  (
    await db
      .select({
        id: queues.id,
        name: queues.name,
        orderQueue: queues.orderQueue,
        greetingMessage: queues.greetingMessage,
        outOfHoursMessage: queues.outOfHoursMessage,
        schedules: queues.schedules,
        integrationId: queues.integrationId,
      })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)))
  )[0] ?? null;

export type TBotQueue = NonNullable<Awaited<ReturnType<typeof queueForBot>>>;

export const optionsOfQueue = async (db: TDbOrTx, companyId: number, queueId: number) =>
  db
    .select({
      id: queueOptions.id,
      parentId: queueOptions.parentId,
      option: queueOptions.option,
      title: queueOptions.title,
      message: queueOptions.message,
    })
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.queueId, queueId)));

/** the ticket row under a lock held until the transaction ends (one automation run per ticket, any node) */
export const lockTicket = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
      .for('update')
  )[0] ?? null;

export type TTicketRow = NonNullable<Awaited<ReturnType<typeof lockTicket>>>;

/** the ticket as it is now, without a lock */
export const ticketById = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
  )[0] ?? null;

const automationTicketQuery = preparedQuery(
  (db, name) =>
    db
      .select({
        ...getTableColumns(tickets),
        ratingPending: sql<boolean>`exists (select 1 from ${ticketTrackings} tt
          where tt.company_id = ${tickets.companyId} and tt.ticket_id = ${tickets.id}
            and tt.finished_at is null and tt.rating_at is not null and tt.rated = false)`,
      })
      .from(tickets)
      .where(and(eq(tickets.companyId, sql.placeholder('companyId')), eq(tickets.id, sql.placeholder('ticketId'))))
      .prepare(name),
  'inbound_automation_ticket',
);

/**
 * what the automation stages ask of a ticket before they run, in one statement: the ticket as it is now
 * (no lock) and whether its open attendance cycle waits for the customer's rating
 */
export const automationTicket = async (db: TDbOrTx, companyId: number, ticketId: number) => {
  const row = (await automationTicketQuery(db).execute({ companyId, ticketId }))[0];
  if (!row) return null;
  const { ratingPending: pending, ...ticket } = row;

  return { ticket: ticket as TTicketRow, ratingPending: !!pending };
};

/** whether the ticket's open attendance cycle waits for the customer's rating */
export const ratingPending = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select({ id: ticketTrackings.id })
      .from(ticketTrackings)
      .where(
        and(
          eq(ticketTrackings.companyId, companyId),
          eq(ticketTrackings.ticketId, ticketId),
          isNull(ticketTrackings.finishedAt),
          isNotNull(ticketTrackings.ratingAt),
          eq(ticketTrackings.rated, false),
        ),
      )
      .limit(1)
  ).length > 0;

export const patchTicket = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  patch: Partial<typeof tickets.$inferInsert>,
) =>
  db
    .update(tickets)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));

/** the ticket's current attendance cycle, made when missing */
export const currentCycle = async (db: TDbOrTx, ticket: TTicketRow) => {
  const found = (
    await db
      .select()
      .from(ticketTrackings)
      .where(
        and(
          eq(ticketTrackings.companyId, ticket.companyId),
          eq(ticketTrackings.ticketId, ticket.id),
          isNull(ticketTrackings.finishedAt),
        ),
      )
      .for('update')
  )[0];
  if (found) return found;
  const inserted = await db
    .insert(ticketTrackings)
    .values({
      companyId: ticket.companyId,
      ticketId: ticket.id,
      whatsappId: ticket.whatsappId,
      queueId: ticket.queueId,
      queuedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return inserted[0];

  return (
    await db
      .select()
      .from(ticketTrackings)
      .where(and(eq(ticketTrackings.ticketId, ticket.id), isNull(ticketTrackings.finishedAt)))
  )[0]!;
};

export type TCycleRow = Awaited<ReturnType<typeof currentCycle>>;

export const patchCycle = async (
  db: TDbOrTx,
  companyId: number,
  trackingId: number,
  patch: Partial<typeof ticketTrackings.$inferInsert>,
) =>
  db
    .update(ticketTrackings)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(ticketTrackings.companyId, companyId), eq(ticketTrackings.id, trackingId)));

/** a new cycle for a ticket going back to pending (an abandoned rating starts a new conversation) */
export const startCycle = async (
  db: TDbOrTx,
  ticket: { companyId: number; id: number; whatsappId: number | null },
  at: Date,
) =>
  db
    .insert(ticketTrackings)
    .values({ companyId: ticket.companyId, ticketId: ticket.id, whatsappId: ticket.whatsappId, queuedAt: at })
    .onConflictDoNothing();

/**
 * Claims the rating of a cycle that awaits one: the row is locked, checked and marked rated and finished
 * in one go; answers null when it was rated or finished meanwhile (a concurrent or replayed reply).
 */
export const claimRating = async (
  db: TDbOrTx,
  companyId: number,
  trackingId: number,
  rate: number,
  at: Date,
  /** the comment step: the customer's next message until then is the rating's comment (rating.repo.ts) */
  commentDueAt: Date | null = null,
) => {
  const claimed = await db
    .update(ticketTrackings)
    .set({ rated: true, finishedAt: at, updatedAt: at })
    .where(
      and(
        eq(ticketTrackings.companyId, companyId),
        eq(ticketTrackings.id, trackingId),
        isNull(ticketTrackings.finishedAt),
        eq(ticketTrackings.rated, false),
        sql`${ticketTrackings.ratingAt} is not null`,
      ),
    )
    .returning();
  const cycle = claimed[0];
  if (!cycle) return null;
  await db
    .insert(userRatings)
    .values({
      companyId,
      ticketId: cycle.ticketId,
      // the cycle rated and the agent who held the ticket when it closed (the reports group by both)
      ticketTrackingId: cycle.id,
      userId: cycle.userId,
      rate,
      commentDueAt,
    })
    .onConflictDoNothing();

  return cycle;
};

/** ends a cycle whose rating was not given (the customer wrote something else) */
export const abandonRating = async (db: TDbOrTx, companyId: number, trackingId: number, at: Date) =>
  (
    await db
      .update(ticketTrackings)
      .set({ finishedAt: at, updatedAt: at })
      .where(
        and(
          eq(ticketTrackings.companyId, companyId),
          eq(ticketTrackings.id, trackingId),
          isNull(ticketTrackings.finishedAt),
          eq(ticketTrackings.rated, false),
        ),
      )
      .returning({ id: ticketTrackings.id })
  ).length > 0;

export const ratingsOfTicket = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  db
    .select()
    .from(userRatings)
    .where(and(eq(userRatings.companyId, companyId), eq(userRatings.ticketId, ticketId)))
    .orderBy(asc(userRatings.id));

// ---- messages the pipeline stores itself

export type TMessageInsert = typeof messages.$inferInsert;

/** stores a message once per (connection, externalId); null when it already was */
export const insertPipelineMessage = async (db: TDbOrTx, values: TMessageInsert) =>
  (await db.insert(messages).values(values).onConflictDoNothing().returning({ id: messages.id }))[0] ?? null;

const messageByExternalIdQuery = preparedQuery(
  (db, name) =>
    db
      .select({ id: messages.id, ticketId: messages.ticketId })
      .from(messages)
      .where(
        and(
          eq(messages.whatsappId, sql.placeholder('connectionId')),
          eq(messages.externalId, sql.placeholder('externalId')),
        ),
      )
      .prepare(name),
  'inbound_message_by_external_id',
);

export const messageByExternalId = async (db: TDbOrTx, connectionId: number, externalId: string) =>
  (await messageByExternalIdQuery(db).execute({ connectionId, externalId }))[0] ?? null;

// ---- contacts

export const contactOfNumber = async (db: TDbOrTx, companyId: number, number: string) =>
  (
    await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
  )[0] ?? null;

export const contactById = async (db: TDbOrTx, companyId: number, contactId: number) =>
  (
    await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
  )[0] ?? null;

export type TContactRow = NonNullable<Awaited<ReturnType<typeof contactById>>>;

/**
 * Records a profile refresh; the `profilePicUpdatedAt` compare-and-set makes concurrent messages of one
 * contact refresh it once. Answers the updated row, or null when another run refreshed it first.
 */
export const claimContactRefresh = async (
  db: TDbOrTx,
  companyId: number,
  contactId: number,
  seen: Date | null,
  at: Date,
) =>
  (
    await db
      .update(contacts)
      .set({ profilePicUpdatedAt: at })
      .where(
        and(
          eq(contacts.companyId, companyId),
          eq(contacts.id, contactId),
          seen ? eq(contacts.profilePicUpdatedAt, seen) : isNull(contacts.profilePicUpdatedAt),
        ),
      )
      .returning({ id: contacts.id })
  ).length > 0;

export const updateContactProfile = async (
  db: TDbOrTx,
  companyId: number,
  contactId: number,
  patch: { name?: string; profilePicUrl?: string },
) => {
  const [row] = await db
    .update(contacts)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .returning();
  if (row && patch.name !== undefined) await rebuildContactTicketsWords(db, companyId, contactId);

  return row ?? null;
};

// ---- housekeeping scans (every company; each hit is then acted upon with its own company id)

/**
 * The two rules that close an open ticket by itself, each a per-connection number of minutes (0 = never):
 * `inactive` (expiresTicket) when our message was the last and the customer did not answer; `openChats`
 * (closeOpenChatsAfterMinutes) when nothing at all happened on the ticket.
 */
export const IDLE_RULES = {
  inactive: { minutes: 'expires_ticket', oursLast: true },
  openChats: { minutes: 'close_open_chats_after_minutes', oursLast: false },
} as const;
export type TIdleRule = keyof typeof IDLE_RULES;

/** `… and the ticket is idle past its connection's minutes` for the `tickets` row in scope */
const idlePast = (rule: TIdleRule, now: Date) => {
  const { minutes, oursLast } = IDLE_RULES[rule];
  const column = sql.raw(`w.${minutes}`);

  return sql`exists (select 1 from ${whatsapps} w where w.id = ${tickets.whatsappId} and w.company_id = ${tickets.companyId}
    and ${column} > 0
    and coalesce(${tickets.lastMessageAt}, ${tickets.updatedAt}) < ${now.toISOString()}::timestamptz - make_interval(mins => ${column}))
    ${oursLast ? sql`and ${tickets.fromMe}` : sql``}`;
};

/** open, non-group tickets idle under a rule */
export const listIdleTickets = async (db: TDbOrTx, rule: TIdleRule, now: Date, limit = 200) =>
  db
    .select({ id: tickets.id, companyId: tickets.companyId })
    .from(tickets)
    .where(and(eq(tickets.status, 'open'), eq(tickets.isGroup, false), idlePast(rule, now)))
    .orderBy(asc(tickets.id))
    .limit(limit);

/** closes a ticket that is still open and idle under the rule (checked again under the update) */
export const closeIdleTicket = async (db: TDbOrTx, rule: TIdleRule, companyId: number, ticketId: number, now: Date) =>
  (
    await db
      .update(tickets)
      .set({ status: 'closed', closedAt: now, unreadMessages: 0, chatbot: false, updatedAt: now })
      .where(
        and(
          eq(tickets.companyId, companyId),
          eq(tickets.id, ticketId),
          eq(tickets.status, 'open'),
          idlePast(rule, now),
        ),
      )
      .returning({ userId: tickets.userId, queueId: tickets.queueId, whatsappId: tickets.whatsappId })
  )[0] ?? null;

export const finishCycle = async (db: TDbOrTx, companyId: number, ticketId: number, at: Date) =>
  db
    .update(ticketTrackings)
    .set({ finishedAt: at, updatedAt: at })
    .where(
      and(
        eq(ticketTrackings.companyId, companyId),
        eq(ticketTrackings.ticketId, ticketId),
        isNull(ticketTrackings.finishedAt),
      ),
    );

export const expiresMessageOf = async (db: TDbOrTx, companyId: number, connectionId: number) =>
  (
    await db
      .select({ expiresInactiveMessage: whatsapps.expiresInactiveMessage })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, connectionId)))
  )[0]?.expiresInactiveMessage ?? '';

/**
 * Pending tickets without queue nor user waiting longer than their connection's `timeToTransfer`
 * minutes (since the current cycle was queued), whose transfer queue is of the same company.
 */
export const listTransferDue = async (db: TDbOrTx, now: Date, limit = 200) =>
  db
    .select({ id: tickets.id, companyId: tickets.companyId, transferQueueId: whatsapps.transferQueueId })
    .from(tickets)
    .innerJoin(whatsapps, and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, tickets.companyId)))
    .innerJoin(queues, and(eq(queues.id, whatsapps.transferQueueId), eq(queues.companyId, tickets.companyId)))
    .leftJoin(ticketTrackings, and(eq(ticketTrackings.ticketId, tickets.id), isNull(ticketTrackings.finishedAt)))
    .where(
      and(
        eq(tickets.status, 'pending'),
        isNull(tickets.queueId),
        isNull(tickets.userId),
        sql`${whatsapps.timeToTransfer} > 0`,
        sql`coalesce(${ticketTrackings.queuedAt}, ${tickets.createdAt}) < ${now.toISOString()}::timestamptz - make_interval(mins => ${whatsapps.timeToTransfer})`,
      ),
    )
    .orderBy(asc(tickets.id))
    .limit(limit);

/** moves a still-unqueued pending ticket to a queue; false when something changed meanwhile */
export const transferToQueue = async (db: TDbOrTx, companyId: number, ticketId: number, queueId: number, now: Date) => {
  const moved = await db
    .update(tickets)
    .set({ queueId, chatbot: false, queueOptionId: null, updatedAt: now })
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.id, ticketId),
        eq(tickets.status, 'pending'),
        isNull(tickets.queueId),
        isNull(tickets.userId),
      ),
    )
    .returning({ id: tickets.id });
  if (moved.length === 0) return false;
  await db
    .update(ticketTrackings)
    .set({ queueId, queuedAt: now, updatedAt: now })
    .where(
      and(
        eq(ticketTrackings.companyId, companyId),
        eq(ticketTrackings.ticketId, ticketId),
        isNull(ticketTrackings.finishedAt),
      ),
    );

  return true;
};
