import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { TDbOrTx } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { whatsapps } from '../../db/schema/connections';
import { contacts } from '../../db/schema/contacts';
import { companies, users } from '../../db/schema/core';
import { messages } from '../../db/schema/messages';
import { queues, userQueues } from '../../db/schema/queues';
import { tags } from '../../db/schema/tags';
import { ticketTags, ticketTrackings, tickets } from '../../db/schema/tickets';
import { insertTicketWords } from './ticket-search.repo';
import { updateRows } from '../../db/update-rows';

export type TTicketRowRaw = typeof tickets.$inferSelect;
export type TTicketInsert = typeof tickets.$inferInsert;
export type TTrackingRow = typeof ticketTrackings.$inferSelect;

/** what the permission rules need to know about a user, with its queue ids, in one prepared query */
const viewerRow = preparedQuery(
  (db, name) =>
    db
      .select({
        id: users.id,
        name: users.name,
        profile: users.profile,
        super: users.super,
        allTicket: users.allTicket,
        canSeeTicketsWithoutQueue: users.canSeeTicketsWithoutQueue,
        whatsappId: users.whatsappId,
        queueIds: sql<number[]>`array(select uq.queue_id from ${userQueues} uq
          where uq.company_id = ${users.companyId} and uq.user_id = ${users.id} order by uq.queue_id)`,
      })
      .from(users)
      .where(and(eq(users.companyId, sql.placeholder('companyId')), eq(users.id, sql.placeholder('userId'))))
      .prepare(name),
  'tickets_viewer',
);

export const findViewer = async (db: TDbOrTx, companyId: number, userId: number) => {
  const [user] = await viewerRow(db).execute({ companyId, userId });

  return user ? { ...user, queueIds: (user.queueIds ?? []).map(Number) } : null;
};

const ticketColumns = {
  ticket: tickets,
  contact: {
    id: contacts.id,
    name: contacts.name,
    number: contacts.number,
    email: contacts.email,
    profilePicUrl: contacts.profilePicUrl,
    isGroup: contacts.isGroup,
  },
  userName: users.name,
  queueName: queues.name,
  queueColor: queues.color,
  whatsappName: whatsapps.name,
  whatsappStatus: whatsapps.status,
  /** the ticket's tags by name, aggregated in the same query */
  tags: sql<{ id: number; name: string; color: string }[]>`coalesce((
    select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name, tg.id)
    from ${ticketTags} tt join ${tags} tg on tg.id = tt.tag_id
    where tt.company_id = ${tickets.companyId} and tt.ticket_id = ${tickets.id}), '[]'::json)`,
};

/** the joined ticket rows the single-ticket answers are made of (and the list's reference in its test) */
export const selectTickets = (db: TDbOrTx) =>
  db
    .select(ticketColumns)
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId));

export type TTicketJoinedRow = Awaited<ReturnType<ReturnType<typeof selectTickets>['execute']>>[number];

const ticketRowQuery = preparedQuery(
  (db, name) =>
    selectTickets(db)
      .where(and(eq(tickets.companyId, sql.placeholder('companyId')), eq(tickets.id, sql.placeholder('id'))))
      .prepare(name),
  'ticket_row',
);

/** one ticket's joined row (every announcement of a ticket or of its messages reads it): built and planned once */
export const findTicketRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (await ticketRowQuery(db).execute({ companyId, id }))[0] ?? null;

export const findTicketRowByUuid = async (db: TDbOrTx, companyId: number, uuid: string) =>
  (await selectTickets(db).where(and(eq(tickets.companyId, companyId), eq(tickets.uuid, uuid))))[0] ?? null;

export const findTicketPlain = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)))
  )[0] ?? null;

export const findActiveTicket = async (db: TDbOrTx, companyId: number, whatsappId: number, contactId: number) =>
  (
    await selectTickets(db).where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.whatsappId, whatsappId),
        eq(tickets.contactId, contactId),
        inArray(tickets.status, ['open', 'pending']),
      ),
    )
  )[0] ?? null;

/** inserts unless the contact already has an active ticket on that connection (the partial unique index) */
export const insertTicketIfNoneActive = async (db: TDbOrTx, values: TTicketInsert) => {
  const [row] = await db
    .insert(tickets)
    .values(values)
    .onConflictDoNothing({
      target: [tickets.companyId, tickets.whatsappId, tickets.contactId],
      where: sql`status in ('open', 'pending')`,
    })
    .returning();
  // found by its contact's name and number before any message
  if (row) await insertTicketWords(db, row.companyId, row.id);

  return row ?? null;
};

/** the latest closed ticket of the contact on that connection */
export const findLatestClosedTicket = async (db: TDbOrTx, companyId: number, whatsappId: number, contactId: number) =>
  (
    await db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, companyId),
          eq(tickets.whatsappId, whatsappId),
          eq(tickets.contactId, contactId),
          eq(tickets.status, 'closed'),
        ),
      )
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(1)
  )[0] ?? null;

/**
 * Compare-and-set: the update applies only while the ticket still has the expected status and user,
 * so two concurrent transitions of one ticket never both succeed.
 */
export const updateTicketIf = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  expected: { status: string; userId: number | null },
  patch: Partial<TTicketInsert>,
) =>
  (
    await updateRows(
      db,
      tickets,
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.id, id),
        eq(tickets.status, expected.status),
        expected.userId === null ? isNull(tickets.userId) : eq(tickets.userId, expected.userId),
      ),
      patch,
    )
  )[0] ?? null;

export const updateTicketRow = async (db: TDbOrTx, companyId: number, id: number, patch: Partial<TTicketInsert>) =>
  (await updateRows(db, tickets, and(eq(tickets.companyId, companyId), eq(tickets.id, id)), patch))[0] ?? null;

/** zeroes the unread count without moving the ticket in the lists (updatedAt kept) */
export const clearUnread = async (db: TDbOrTx, companyId: number, id: number) =>
  db
    .update(tickets)
    .set({ unreadMessages: 0, updatedAt: sql`${tickets.updatedAt}` })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)))
    .returning({ id: tickets.id });

export const deleteTicketRow = async (db: TDbOrTx, companyId: number, id: number) =>
  db
    .delete(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)))
    .returning({ id: tickets.id });

export const mediaFilesOfTicket = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select({ mediaUrl: messages.mediaUrl })
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.ticketId, ticketId), sql`media_url is not null`))
  ).map((r) => r.mediaUrl as string);

// ---- references

export const contactOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)))
  )[0] ?? null;

export const connectionOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
  )[0] ?? null;

export const defaultConnection = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
  )[0] ?? null;

export const queueOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: queues.id, name: queues.name })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
  )[0] ?? null;

export const userOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.id, id)))
  )[0] ?? null;

export const companyBasics = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select({ id: companies.id, language: companies.language, timezone: companies.timezone })
      .from(companies)
      .where(eq(companies.id, companyId))
  )[0] ?? null;

/** the company's time zone (São Paulo's when it has none) */
export const companyZone = async (db: TDbOrTx, companyId: number) =>
  (await companyBasics(db, companyId))?.timezone ?? 'America/Sao_Paulo';

const sendTargetQuery = preparedQuery(
  (db, name) =>
    db
      .select({
        ticket: tickets,
        contact: contacts,
        company: { id: companies.id, language: companies.language, timezone: companies.timezone },
        provider: whatsapps.provider,
      })
      .from(tickets)
      .leftJoin(contacts, and(eq(contacts.companyId, tickets.companyId), eq(contacts.id, tickets.contactId)))
      .leftJoin(companies, eq(companies.id, tickets.companyId))
      .leftJoin(whatsapps, and(eq(whatsapps.companyId, tickets.companyId), eq(whatsapps.id, tickets.whatsappId)))
      .where(and(eq(tickets.companyId, sql.placeholder('companyId')), eq(tickets.id, sql.placeholder('ticketId'))))
      .prepare(name),
  'send_target',
);

/**
 * what a send needs, in one prepared statement: the ticket, its contact, the company's language and time zone
 * (the same rows as findTicketPlain, contactOfCompany and companyBasics) and its connection's transport
 * (`provider`, null without one: only the Cloud API has a service window to check); null without the ticket
 */
export const sendTarget = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (await sendTargetQuery(db).execute({ companyId, ticketId }))[0] ?? null;

// ---- tracking rows (one per attendance cycle; the current one has finishedAt null)

export const currentTracking = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select()
      .from(ticketTrackings)
      .where(
        and(
          eq(ticketTrackings.companyId, companyId),
          eq(ticketTrackings.ticketId, ticketId),
          isNull(ticketTrackings.finishedAt),
        ),
      )
  )[0] ?? null;

export const insertTracking = async (db: TDbOrTx, values: typeof ticketTrackings.$inferInsert) =>
  (await db.insert(ticketTrackings).values(values).returning())[0];

export const updateTracking = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  /** values, or SQL over the row's own columns (`transfers + 1`) */
  patch: PgUpdateSetSource<typeof ticketTrackings>,
) =>
  db
    .update(ticketTrackings)
    .set(patch)
    .where(and(eq(ticketTrackings.companyId, companyId), eq(ticketTrackings.id, id)));

/** ends the ticket's current cycle, if any */
export const finishCurrentTracking = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  db
    .update(ticketTrackings)
    .set({ finishedAt: new Date() })
    .where(
      and(
        eq(ticketTrackings.companyId, companyId),
        eq(ticketTrackings.ticketId, ticketId),
        isNull(ticketTrackings.finishedAt),
      ),
    );

export const trackingsOfTicket = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  db
    .select()
    .from(ticketTrackings)
    .where(and(eq(ticketTrackings.companyId, companyId), eq(ticketTrackings.ticketId, ticketId)))
    .orderBy(asc(ticketTrackings.id));

/**
 * an agent was given a ticket (accept, transfer to it, its own new ticket): automatic assignment's tie-break
 * counts from the latest one, however it came (modules/assignment)
 */
export const touchLastAssigned = async (db: TDbOrTx, companyId: number, userId: number, at: Date) =>
  db
    .update(users)
    .set({ lastAssignedAt: at })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
