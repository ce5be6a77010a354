import { and, count, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client';
import { whatsappQueues } from '../db/schema/connections';
import { contacts } from '../db/schema/contacts';
import { messages } from '../db/schema/messages';
import { ticketSearch, ticketTrackings, tickets } from '../db/schema/tickets';

/**
 * The batched pipeline's queries (fast-path.ts): each reads or writes the rows of a whole batch of
 * inbound messages in one statement. Every query is scoped by company (and connection where it applies).
 */

const DAY_MS = 86_400_000;

/** the external ids of this batch already stored on the connection (replayed deliveries) */
export const storedExternalIds = async (db: TDbOrTx, connectionId: number, externalIds: string[]) =>
  new Set(
    (
      await db
        .select({ externalId: messages.externalId })
        .from(messages)
        .where(and(eq(messages.whatsappId, connectionId), inArray(messages.externalId, externalIds)))
    ).map((r) => r.externalId as string),
  );

/** the numbers whose closed ticket on the connection waits for a rating reply */
export const numbersAwaitingRating = async (db: TDbOrTx, companyId: number, connectionId: number, numbers: string[]) =>
  new Set(
    (
      await db
        .select({ number: contacts.number })
        .from(tickets)
        .innerJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, companyId)))
        .innerJoin(ticketTrackings, eq(ticketTrackings.ticketId, tickets.id))
        .where(
          and(
            inArray(contacts.number, numbers),
            eq(tickets.companyId, companyId),
            eq(tickets.whatsappId, connectionId),
            eq(tickets.status, 'closed'),
            isNull(ticketTrackings.finishedAt),
            isNotNull(ticketTrackings.ratingAt),
          ),
        )
    ).map((r) => r.number),
  );

export const contactsOfNumbers = async (db: TDbOrTx, companyId: number, numbers: string[]) =>
  db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, numbers)));

export type TBatchContact = Awaited<ReturnType<typeof contactsOfNumbers>>[number];

/** new contacts; a number created meanwhile by someone else is not answered (read it again) */
export const insertContacts = async (db: TDbOrTx, values: (typeof contacts.$inferInsert)[]) =>
  values.length === 0 ? [] : db.insert(contacts).values(values).onConflictDoNothing().returning();

/** the open or pending tickets of these contacts on the connection (at most one each) */
export const activeTicketsOf = async (db: TDbOrTx, companyId: number, connectionId: number, contactIds: number[]) =>
  db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.whatsappId, connectionId),
        inArray(tickets.contactId, contactIds),
        inArray(tickets.status, ['open', 'pending']),
      ),
    );

export type TBatchTicket = Awaited<ReturnType<typeof activeTicketsOf>>[number];

/** contacts with a closed ticket on the connection updated within the reopen window */
export const contactsWithRecentClosed = async (
  db: TDbOrTx,
  companyId: number,
  connectionId: number,
  contactIds: number[],
  since: Date,
) =>
  new Set(
    (
      await db
        .selectDistinct({ contactId: tickets.contactId })
        .from(tickets)
        .where(
          and(
            eq(tickets.companyId, companyId),
            eq(tickets.whatsappId, connectionId),
            inArray(tickets.contactId, contactIds),
            eq(tickets.status, 'closed'),
            sql`coalesce(${tickets.closedAt}, ${tickets.updatedAt}) >= ${since.toISOString()}::timestamptz`,
          ),
        )
    ).map((r) => r.contactId),
  );

/**
 * New pending tickets with their first attendance cycle and their contact's search words, in the
 * caller's transaction. A contact that got an active ticket meanwhile (another node) is left out.
 */
export const createTickets = async (tx: TDbOrTx, values: (typeof tickets.$inferInsert)[], at: Date) => {
  if (values.length === 0) return [];
  const created = await tx
    .insert(tickets)
    .values(values)
    .onConflictDoNothing({
      target: [tickets.companyId, tickets.whatsappId, tickets.contactId],
      where: sql`status in ('open', 'pending')`,
    })
    .returning();
  if (created.length === 0) return created;
  await tx
    .insert(ticketTrackings)
    .values(created.map((t) => ({ companyId: t.companyId, ticketId: t.id, whatsappId: t.whatsappId, queuedAt: at })));
  const ids = created.map((t) => t.id);
  await tx.execute(sql`
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select t.id, t.company_id, strip(to_tsvector('simple'::regconfig, coalesce(c.name, '') || ' ' || c.number || ' ' ||
      right(c.number, 8) || ' ' || right(c.number, 9) || ' ' || right(c.number, 10) || ' ' || right(c.number, 11)))
    from ${tickets} t join ${contacts} c on c.id = t.contact_id
    where t.company_id = ${created[0]!.companyId} and t.id in ${ids}`);

  return created;
};

export const insertMessages = async (db: TDbOrTx, values: (typeof messages.$inferInsert)[]) =>
  values.length === 0 ? [] : db.insert(messages).values(values).onConflictDoNothing().returning();

export type TBatchMessage = Awaited<ReturnType<typeof insertMessages>>[number];

/** longest text of one message that is indexed, and lexemes of a search chunk (ticket-search.repo.ts) */
const TEXT_MAX = 20_000;
const CHUNK_WORDS = 1_000;

/**
 * After the batch's messages: each ticket's last message, unread count (+n) and order, and its search
 * words (added to its last chunk, or a new chunk when that one is full).
 */
export const touchTickets = async (
  db: TDbOrTx,
  companyId: number,
  touches: { ticketId: number; lastMessage: string; unread: number; words: string }[],
  at: Date,
) => {
  if (touches.length === 0) return;
  const values = sql.join(
    touches.map((t) => sql`(${t.ticketId}::int, ${t.lastMessage}::text, ${t.unread}::int)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${tickets} t set last_message = v.last_message, last_message_at = ${at.toISOString()}::timestamptz,
      from_me = false, unread_messages = t.unread_messages + v.unread, updated_at = ${at.toISOString()}::timestamptz
    from (values ${values}) as v(id, last_message, unread)
    where t.id = v.id and t.company_id = ${companyId}`);

  const worded = touches.filter((t) => t.words.trim());
  if (worded.length === 0) return;
  const words = sql.join(
    worded.map((t) => sql`(${t.ticketId}::int, to_tsvector('simple'::regconfig, ${t.words.slice(0, TEXT_MAX)}))`),
    sql`, `,
  );
  await db.execute(sql`
    with v(ticket_id, words) as (values ${words}),
    last as (
      select distinct on (s.ticket_id) s.id, s.ticket_id from ${ticketSearch} s join v on v.ticket_id = s.ticket_id
      where s.company_id = ${companyId} order by s.ticket_id, s.id desc
    ), grown as (
      update ${ticketSearch} s set words = strip(s.words || v.words)
      from last join v on v.ticket_id = last.ticket_id
      where s.id = last.id and length(s.words) < ${CHUNK_WORDS}
      returning s.ticket_id
    )
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select v.ticket_id, ${companyId}, strip(v.words) from v where not exists (select 1 from grown g where g.ticket_id = v.ticket_id)`);
};

/** the current (unfinished) attendance cycle of each ticket */
export const currentCyclesOf = async (db: TDbOrTx, companyId: number, ticketIds: number[]) =>
  ticketIds.length === 0
    ? []
    : db
        .select({
          id: ticketTrackings.id,
          ticketId: ticketTrackings.ticketId,
          ratingAt: ticketTrackings.ratingAt,
          rated: ticketTrackings.rated,
        })
        .from(ticketTrackings)
        .where(
          and(
            eq(ticketTrackings.companyId, companyId),
            inArray(ticketTrackings.ticketId, ticketIds),
            isNull(ticketTrackings.finishedAt),
          ),
        );

export const queueCountOfConnection = async (db: TDbOrTx, companyId: number, connectionId: number) =>
  (
    await db
      .select({ n: count() })
      .from(whatsappQueues)
      .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, connectionId)))
  )[0]?.n ?? 0;

/**
 * Claims the daily profile refresh of these contacts (not refreshed in the last day): answers the ones
 * claimed, each at most once a day whatever the number of messages, nodes or batches.
 */
export const claimContactRefreshes = async (db: TDbOrTx, companyId: number, contactIds: number[], at: Date) => {
  if (contactIds.length === 0) return new Set<number>();
  const stale: SQL | undefined = or(
    isNull(contacts.profilePicUpdatedAt),
    sql`${contacts.profilePicUpdatedAt} <= ${new Date(at.getTime() - DAY_MS).toISOString()}::timestamptz`,
  );
  const claimed = await db
    .update(contacts)
    .set({ profilePicUpdatedAt: at })
    .where(and(eq(contacts.companyId, companyId), inArray(contacts.id, contactIds), eq(contacts.isGroup, false), stale))
    .returning({ id: contacts.id });

  return new Set(claimed.map((c) => c.id));
};
