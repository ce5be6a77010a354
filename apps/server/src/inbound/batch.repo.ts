import { eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client';
import { preparedQuery } from '../db/prepared';
import { whatsappQueues, whatsapps } from '../db/schema/connections';
import type { contacts } from '../db/schema/contacts';
import { companies, settings } from '../db/schema/core';
import { queues } from '../db/schema/queues';
import { queryRows } from '../db/statements';
import { foldRaw } from '../modules/tickets/search-fold';

/**
 * The batched pipeline's queries (fast-path.ts): each reads or writes the rows of a whole batch of inbound
 * messages in one statement. The texts are fixed (a batch's rows travel as array parameters), so each is a
 * named prepared statement planned once per pooled connection (db/statements.ts). Every query is scoped by
 * company, and by connection where it applies.
 */

const DAY_MS = 86_400_000;

/**
 * What a batch of one connection needs to know, in one statement: the connection, its company (language,
 * time zone, working hours), the company's stored settings and how many queues the connection's menu offers.
 */
const batchContextQuery = preparedQuery(
  (db, name) =>
    db
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
        /** the company's queues with an AI prompt (a ticket in one is answered by the AI stage) */
        promptQueues: sql<number[] | string | null>`(select json_agg(q.id) from ${queues} q
          where q.company_id = ${whatsapps.companyId} and q.prompt_id is not null)`,
      })
      .from(whatsapps)
      .innerJoin(companies, eq(companies.id, whatsapps.companyId))
      .where(eq(whatsapps.id, sql.placeholder('connectionId')))
      .prepare(name),
  'inbound_batch_context',
);

export const batchContextOf = async (db: TDbOrTx, connectionId: number) =>
  (await batchContextQuery(db).execute({ connectionId }))[0] ?? null;

/** the external ids of this batch already stored on the connection (replayed deliveries) */
export const storedExternalIds = async (db: TDbOrTx, connectionId: number, externalIds: string[]) =>
  new Set(
    (
      await queryRows<{ external_id: string }>(
        db,
        'select external_id from messages where whatsapp_id = $1 and external_id = any($2::varchar[])',
        [connectionId, externalIds],
      )
    ).map((r) => r.external_id),
  );

/**
 * the numbers whose closed ticket on the connection waits for a rating reply, or whose rating waits for its
 * comment (inbound/rating-comment.ts)
 */
export const numbersAwaitingRating = async (db: TDbOrTx, companyId: number, connectionId: number, numbers: string[]) =>
  new Set(
    (
      await queryRows<{ number: string }>(
        db,
        `select c.number from tickets t
         join contacts c on c.id = t.contact_id and c.company_id = $1
         join ticket_trackings tr on tr.ticket_id = t.id and tr.finished_at is null and tr.rating_at is not null
         where t.company_id = $1 and t.whatsapp_id = $2 and t.status = 'closed' and c.number = any($3::varchar[])
         union
         select c.number from user_ratings r
         join tickets t on t.id = r.ticket_id and t.company_id = $1
         join contacts c on c.id = t.contact_id and c.company_id = $1
         where r.company_id = $1 and r.comment_due_at is not null and t.whatsapp_id = $2 and t.status = 'closed'
           and c.number = any($3::varchar[])`,
        [companyId, connectionId, numbers],
      )
    ).map((r) => r.number),
  );

export type TBatchContact = typeof contacts.$inferSelect;

const CONTACT_COLUMNS = `id, company_id as "companyId", name, number, email, profile_pic_url as "profilePicUrl",
  profile_pic_updated_at as "profilePicUpdatedAt", is_group as "isGroup", disable_bot as "disableBot", lid,
  whatsapp_id as "whatsappId", created_at as "createdAt", updated_at as "updatedAt"`;

/** the contacts of these numbers, each with its open or pending ticket on the connection (at most one) */
export const contactsOfNumbers = async (db: TDbOrTx, companyId: number, connectionId: number, numbers: string[]) =>
  queryRows<TBatchContact & { activeTicketId: number | null }>(
    db,
    `select ${CONTACT_COLUMNS}, (select t.id from tickets t where t.company_id = $1 and t.whatsapp_id = $2
       and t.contact_id = contacts.id and t.status in ('open', 'pending') limit 1) as "activeTicketId"
     from contacts where company_id = $1 and number = any($3::varchar[])`,
    [companyId, connectionId, numbers],
  );

/** a contact's words for the list search (ticket-search.repo.ts `contactText`) */
const CONTACT_WORDS = `strip(to_tsvector('simple'::regconfig, ${foldRaw(`coalesce(c.name, '') || ' ' || c.number || ' ' ||
  right(c.number, 8) || ' ' || right(c.number, 9) || ' ' || right(c.number, 10) || ' ' || right(c.number, 11)`)}))`;

/**
 * The CTEs that follow new tickets (a `made` CTE returning id, company_id, whatsapp_id, contact_id): their
 * first attendance cycle, queued at `at`, and their contact's search words, the contacts read from `contacts`.
 */
const newTicketsFollowUp = (at: string, contacts: string) => `cycles as (
      insert into ticket_trackings (company_id, ticket_id, whatsapp_id, queued_at)
      select made.company_id, made.id, made.whatsapp_id, ${at}::timestamptz from made
    ), words as (
      insert into ticket_search (ticket_id, company_id, words)
      select made.id, made.company_id, ${CONTACT_WORDS} from made join ${contacts} c on c.id = made.contact_id
    )`;

const CONTACT_COLUMNS_OF = (alias: string) =>
  CONTACT_COLUMNS.split(',')
    .map((c) => `${alias}.${c.trim()}`)
    .join(', ');

/**
 * The contacts of these numbers in one statement: the known ones with their open or pending ticket on the
 * connection, and the new ones made with a pending ticket each, its first attendance cycle and its search
 * words (`created`). A number made meanwhile by someone else is not answered (read it again).
 */
export const contactsWithTickets = async (
  db: TDbOrTx,
  companyId: number,
  connectionId: number,
  list: { number: string; name: string; code: string }[],
  at: Date,
) =>
  queryRows<TBatchContact & { activeTicketId: number | null; created: boolean }>(
    db,
    `with v as (
      select * from unnest($3::varchar[], $4::varchar[], $5::varchar[]) with ordinality as v(number, name, code, ord)
    ), known as (
      select c.*, (select t.id from tickets t where t.company_id = $1 and t.whatsapp_id = $2 and t.contact_id = c.id
        and t.status in ('open', 'pending') limit 1) as active_ticket_id
      from contacts c where c.company_id = $1 and c.number in (select number from v)
    ), added as (
      insert into contacts (company_id, number, name, is_group, whatsapp_id)
      select $1, v.number, v.name, false, $2 from v where not exists (select 1 from known k where k.number = v.number)
      order by v.ord
      on conflict do nothing
      returning *
    ), made as (
      insert into tickets (company_id, whatsapp_id, contact_id, is_group, status, code)
      select $1, $2, a.id, false, 'pending', v.code from added a join v on v.number = a.number
      on conflict (company_id, whatsapp_id, contact_id) where status in ('open', 'pending') do nothing
      returning id, company_id, whatsapp_id, contact_id
    ), ${newTicketsFollowUp('$6', 'added')}
    select ${CONTACT_COLUMNS_OF('known')}, known.active_ticket_id as "activeTicketId", false as created from known
    union all
    select ${CONTACT_COLUMNS_OF('added')}, made.id, true from added left join made on made.contact_id = added.id`,
    [companyId, connectionId, list.map((c) => c.number), list.map((c) => c.name), list.map((c) => c.code), at],
  );

/** the open or pending tickets of these contacts on the connection (at most one each) */
export const activeTicketsOf = async (db: TDbOrTx, companyId: number, connectionId: number, contactIds: number[]) =>
  queryRows<{ id: number; contactId: number }>(
    db,
    `select id, contact_id as "contactId" from tickets
     where company_id = $1 and whatsapp_id = $2 and contact_id = any($3::int[]) and status in ('open', 'pending')`,
    [companyId, connectionId, contactIds],
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
      await queryRows<{ contactId: number }>(
        db,
        `select distinct contact_id as "contactId" from tickets
         where company_id = $1 and whatsapp_id = $2 and contact_id = any($3::int[]) and status = 'closed'
           and coalesce(closed_at, updated_at) >= $4::timestamptz`,
        [companyId, connectionId, contactIds, since],
      )
    ).map((r) => r.contactId),
  );

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
  const made = await queryRows<{ id: number; contactId: number }>(
    db,
    `with made as (
      insert into tickets (company_id, whatsapp_id, contact_id, is_group, status, code)
      select $1, $2, v.contact_id, false, 'pending', v.code from unnest($3::int[], $4::varchar[]) as v(contact_id, code)
      on conflict (company_id, whatsapp_id, contact_id) where status in ('open', 'pending') do nothing
      returning id, company_id, whatsapp_id, contact_id
    ), ${newTicketsFollowUp('$5', 'contacts')}
    select id, contact_id as "contactId" from made`,
    [companyId, connectionId, rows.map((r) => r.contactId), rows.map((r) => r.code), at],
  );

  return new Map(made.map((r) => [r.contactId, r.id]));
};

/**
 * For contacts without an active ticket on the connection: a new pending ticket each, made together
 * (`createTickets`), except a contact whose closed ticket is within the reopen window (left to the one-by-one
 * rules, which reopen it); a contact that got an active ticket meanwhile keeps that one. Answers the tickets by
 * contact and which of them are new. The inbound batch and the schedule sender's batch both make tickets so.
 */
export const newPendingTickets = async (
  db: TDbOrTx,
  companyId: number,
  connectionId: number,
  contactIds: number[],
  opts: { reopenWindowMinutes: number; code: () => string },
) => {
  const active = new Map<number, number>();
  const created = new Set<number>();
  let without = contactIds;
  if (without.length > 0 && opts.reopenWindowMinutes > 0) {
    const since = new Date(Date.now() - opts.reopenWindowMinutes * 60_000);
    const recent = await contactsWithRecentClosed(db, companyId, connectionId, without, since);
    without = without.filter((id) => !recent.has(id));
  }
  if (without.length === 0) return { active, created };
  const made = await createTickets(
    db,
    companyId,
    connectionId,
    without.map((contactId) => ({ contactId, code: opts.code() })),
    new Date(),
  );
  for (const [contactId, ticketId] of made) {
    active.set(contactId, ticketId);
    created.add(ticketId);
  }
  // another writer made one meanwhile
  const raced = without.filter((id) => !active.has(id));
  if (raced.length > 0) {
    for (const t of await activeTicketsOf(db, companyId, connectionId, raced)) active.set(t.contactId, t.id);
  }

  return { active, created };
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
  const rows = await queryRows<{ id: number | string; externalId: string; createdAt: Date; updatedAt: Date }>(
    db,
    `with v as (
      select * from unnest($3::int[], $4::int[], $5::varchar[], $6::text[], $7::varchar[], $8::varchar[], $9::varchar[],
        $10::timestamptz[], $11::text[]) with ordinality
        as v(ticket_id, contact_id, external_id, body, media_type, remote_jid, participant, created_at, label, ord)
    ), stored as (
      insert into messages (company_id, ticket_id, contact_id, whatsapp_id, external_id, source, body, from_me, read,
        ack, media_type, remote_jid, participant, created_at)
      select $1, v.ticket_id, v.contact_id, $2, v.external_id, 'customer', v.body, false, false,
        3, v.media_type, v.remote_jid, v.participant, v.created_at from v order by v.ord
      on conflict do nothing
      returning id, external_id, created_at, updated_at
    ), per_ticket as (
      select v.ticket_id, count(*)::int as unread, (array_agg(v.label order by v.ord desc))[1] as last_message,
        left(string_agg(v.body, ' ' order by v.ord), ${TEXT_MAX}) as words
      from stored join v on v.external_id = stored.external_id group by v.ticket_id
    ), touched as (
      update tickets t set last_message = p.last_message, last_message_at = $12::timestamptz, from_me = false,
        unread_messages = t.unread_messages + p.unread, updated_at = $12::timestamptz
      from per_ticket p where t.id = p.ticket_id and t.company_id = $1
    ), w as (
      select ticket_id, to_tsvector('simple'::regconfig, ${foldRaw('words')}) as words from per_ticket where btrim(words) <> ''
    ), last as (
      select distinct on (s.ticket_id) s.id, s.ticket_id from ticket_search s join w on w.ticket_id = s.ticket_id
      where s.company_id = $1 order by s.ticket_id, s.id desc
    ), grown as (
      update ticket_search s set words = strip(s.words || w.words)
      from last join w on w.ticket_id = last.ticket_id
      where s.id = last.id and length(s.words) < ${CHUNK_WORDS}
      returning s.ticket_id
    ), added as (
      insert into ticket_search (ticket_id, company_id, words)
      select w.ticket_id, $1, strip(w.words) from w where not exists (select 1 from grown g where g.ticket_id = w.ticket_id)
    )
    select id, external_id as "externalId", created_at as "createdAt", updated_at as "updatedAt" from stored`,
    [
      companyId,
      connectionId,
      list.map((m) => m.ticketId),
      list.map((m) => m.contactId),
      list.map((m) => m.externalId),
      list.map((m) => m.body),
      list.map((m) => m.mediaType),
      list.map((m) => m.remoteJid),
      list.map((m) => m.participant),
      list.map((m) => m.createdAt),
      list.map((m) => m.label),
      at,
    ],
  );

  return new Map(
    rows.map((r) => [
      r.externalId,
      { id: Number(r.id), createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) },
    ]),
  );
};

/** the current (unfinished) attendance cycle of each ticket */
export const currentCyclesOf = async (db: TDbOrTx, companyId: number, ticketIds: number[]) =>
  ticketIds.length === 0
    ? []
    : queryRows<{ id: number; ticketId: number; ratingAt: Date | null; rated: boolean }>(
        db,
        `select id, ticket_id as "ticketId", rating_at as "ratingAt", rated from ticket_trackings
         where company_id = $1 and ticket_id = any($2::int[]) and finished_at is null`,
        [companyId, ticketIds],
      );

/**
 * Claims the daily profile refresh of these contacts (not refreshed in the last day): answers the ones
 * claimed, each at most once a day whatever the number of messages, nodes or batches.
 */
export const claimContactRefreshes = async (db: TDbOrTx, companyId: number, contactIds: number[], at: Date) => {
  if (contactIds.length === 0) return new Set<number>();
  const claimed = await queryRows<{ id: number }>(
    db,
    `update contacts set profile_pic_updated_at = $3::timestamptz
     where company_id = $1 and id = any($2::int[]) and not is_group
       and (profile_pic_updated_at is null or profile_pic_updated_at <= $4::timestamptz)
     returning id`,
    [companyId, contactIds, at, new Date(at.getTime() - DAY_MS)],
  );

  return new Set(claimed.map((c) => c.id));
};
