import { and, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client';
import { whatsappQueues, whatsapps } from '../db/schema/connections';
import { contacts } from '../db/schema/contacts';
import { companies, settings } from '../db/schema/core';
import { messages } from '../db/schema/messages';
import { ticketSearch, ticketTrackings, tickets } from '../db/schema/tickets';

/**
 * The batched pipeline's queries (fast-path.ts): each reads or writes the rows of a whole batch of
 * inbound messages in one statement. Every query is scoped by company (and connection where it applies).
 */

const DAY_MS = 86_400_000;

/**
 * What a batch of one connection needs to know, in one statement: the connection, its company (language,
 * time zone, working hours), the company's stored settings and how many queues the connection's menu offers.
 */
export const batchContextOf = async (db: TDbOrTx, connectionId: number) =>
  (
    await db
      .select({
        connection: whatsapps,
        company: {
          id: companies.id,
          language: companies.language,
          timezone: companies.timezone,
          schedules: companies.schedules,
        },
        settings: sql<
          { key: string; value: string }[] | string | null
        >`(select json_agg(json_build_object('key', s.key, 'value', s.value))
          from ${settings} s where s.company_id = ${whatsapps.companyId})`,
        queues: sql<number>`(select count(*)::int from ${whatsappQueues} wq
          where wq.company_id = ${whatsapps.companyId} and wq.whatsapp_id = ${whatsapps.id})`,
      })
      .from(whatsapps)
      .innerJoin(companies, eq(companies.id, whatsapps.companyId))
      .where(eq(whatsapps.id, connectionId))
  )[0] ?? null;

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
    .select({ id: tickets.id, contactId: tickets.contactId })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.whatsappId, connectionId),
        inArray(tickets.contactId, contactIds),
        inArray(tickets.status, ['open', 'pending']),
      ),
    );

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

const CONTACT_WORDS = (c: string) =>
  sql.raw(`strip(to_tsvector('simple'::regconfig, coalesce(${c}.name, '') || ' ' || ${c}.number || ' ' || right(${c}.number, 8)
    || ' ' || right(${c}.number, 9) || ' ' || right(${c}.number, 10) || ' ' || right(${c}.number, 11)))`);

/**
 * New pending tickets with their first attendance cycle and their contact's search words, in one
 * statement (all or nothing). A contact that got an active ticket meanwhile (another node) is left out.
 * Answers the new tickets' ids by contact.
 */
export const createTickets = async (
  db: TDbOrTx,
  companyId: number,
  connectionId: number,
  rows: { contactId: number; code: string }[],
  at: Date,
) => {
  if (rows.length === 0) return new Map<number, number>();
  const values = sql.join(
    rows.map((r) => sql`(${r.contactId}::int, ${r.code}::varchar)`),
    sql`, `,
  );
  const { rows: made } = (await db.execute(sql`
    with v(contact_id, code) as (values ${values}),
    made as (
      insert into ${tickets} (company_id, whatsapp_id, contact_id, is_group, status, code)
      select ${companyId}, ${connectionId}, v.contact_id, false, 'pending', v.code from v
      on conflict (company_id, whatsapp_id, contact_id) where status in ('open', 'pending') do nothing
      returning id, company_id, whatsapp_id, contact_id
    ), cycles as (
      insert into ${ticketTrackings} (company_id, ticket_id, whatsapp_id, queued_at)
      select made.company_id, made.id, made.whatsapp_id, ${at.toISOString()}::timestamptz from made
    ), words as (
      insert into ${ticketSearch} (ticket_id, company_id, words)
      select made.id, made.company_id, ${CONTACT_WORDS('c')} from made join ${contacts} c on c.id = made.contact_id
    )
    select id, contact_id from made`)) as unknown as { rows: { id: number; contact_id: number }[] };

  return new Map(made.map((r) => [Number(r.contact_id), Number(r.id)]));
};

/** longest text of one message that is indexed, and lexemes of a search chunk (ticket-search.repo.ts) */
const TEXT_MAX = 20_000;
const CHUNK_WORDS = 1_000;

export type TNewMessage = {
  ticketId: number;
  contactId: number;
  externalId: string;
  body: string;
  mediaType: string | null;
  remoteJid: string;
  participant: string | null;
  createdAt: Date;
  /** what the ticket list shows as its last message */
  label: string;
};

/**
 * The batch's messages, once per (connection, external id), and in the same statement each ticket's last
 * message, unread count (+ the messages stored), order and search words (added to its last chunk, or to a
 * new chunk when that one is full). Answers the stored messages' ids and stamps by external id; a message
 * stored meanwhile by a concurrent delivery is not answered and touches nothing.
 */
export const storeMessages = async (
  db: TDbOrTx,
  companyId: number,
  connectionId: number,
  list: TNewMessage[],
  at: Date,
) => {
  if (list.length === 0) return new Map<string, { id: number; createdAt: Date; updatedAt: Date }>();
  const values = sql.join(
    list.map(
      (m, ord) =>
        sql`(${ord}::int, ${m.ticketId}::int, ${m.contactId}::int, ${m.externalId}::varchar, ${m.body}::text,
          ${m.mediaType}::varchar, ${m.remoteJid}::varchar, ${m.participant}::varchar, ${m.createdAt.toISOString()}::timestamptz, ${m.label}::text)`,
    ),
    sql`, `,
  );
  const stamp = sql`${at.toISOString()}::timestamptz`;
  const { rows } = (await db.execute(sql`
    with v(ord, ticket_id, contact_id, external_id, body, media_type, remote_jid, participant, created_at, label) as (
      values ${values}
    ), stored as (
      insert into ${messages} (company_id, ticket_id, contact_id, whatsapp_id, external_id, source, body, from_me, read,
        ack, media_type, remote_jid, participant, created_at)
      select ${companyId}, v.ticket_id, v.contact_id, ${connectionId}, v.external_id, 'customer', v.body, false, false,
        3, v.media_type, v.remote_jid, v.participant, v.created_at from v order by v.ord
      on conflict do nothing
      returning id, external_id, created_at, updated_at
    ), per_ticket as (
      select v.ticket_id, count(*)::int as unread, (array_agg(v.label order by v.ord desc))[1] as last_message,
        left(string_agg(v.body, ' ' order by v.ord), ${TEXT_MAX}) as words
      from stored join v on v.external_id = stored.external_id group by v.ticket_id
    ), touched as (
      update ${tickets} t set last_message = p.last_message, last_message_at = ${stamp}, from_me = false,
        unread_messages = t.unread_messages + p.unread, updated_at = ${stamp}
      from per_ticket p where t.id = p.ticket_id and t.company_id = ${companyId}
    ), w as (
      select ticket_id, to_tsvector('simple'::regconfig, words) as words from per_ticket where btrim(words) <> ''
    ), last as (
      select distinct on (s.ticket_id) s.id, s.ticket_id from ${ticketSearch} s join w on w.ticket_id = s.ticket_id
      where s.company_id = ${companyId} order by s.ticket_id, s.id desc
    ), grown as (
      update ${ticketSearch} s set words = strip(s.words || w.words)
      from last join w on w.ticket_id = last.ticket_id
      where s.id = last.id and length(s.words) < ${CHUNK_WORDS}
      returning s.ticket_id
    ), added as (
      insert into ${ticketSearch} (ticket_id, company_id, words)
      select w.ticket_id, ${companyId}, strip(w.words) from w where not exists (select 1 from grown g where g.ticket_id = w.ticket_id)
    )
    select id, external_id, created_at, updated_at from stored`)) as unknown as {
    rows: { id: number | string; external_id: string; created_at: Date | string; updated_at: Date | string }[];
  };

  return new Map(
    rows.map((r) => [
      r.external_id,
      { id: Number(r.id), createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at) },
    ]),
  );
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
