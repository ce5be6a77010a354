import type { TTicket } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { queryRows, type SqlParams } from '../../db/statements';
import type { TSearchCondition } from './ticket-search.repo';

/**
 * The ticket list (`GET /api/tickets`), the busiest query of the inbox, written as SQL text and run as
 * named prepared statements (db/statements.ts): the condition's shape is the text (which filters, which
 * visibility rule, the status, the page), the values are parameters PostgreSQL never plans on, so each
 * shape is planned once per pooled connection. Lists (queues, users, tags) are one array parameter, so
 * their length does not change the text.
 *
 * Conditions are strings over the alias `t` (tickets); `TRUE`/`FALSE` fold away, so a status filter can
 * drop a visibility branch that contradicts it (an open list never needs the "pending in my queues" arm).
 */

export const TRUE = 'true';
export const FALSE = 'false';

export const anyOf = (...parts: (string | undefined)[]) => {
  const kept = parts.filter((p): p is string => p !== undefined && p !== FALSE);
  if (kept.includes(TRUE)) return TRUE;
  if (kept.length === 0) return FALSE;

  return kept.length === 1 ? kept[0] : `(${kept.join(' or ')})`;
};

export const allOf = (...parts: (string | undefined)[]) => {
  const kept = parts.filter((p): p is string => p !== undefined && p !== TRUE);
  if (kept.includes(FALSE)) return FALSE;
  if (kept.length === 0) return TRUE;

  return kept.length === 1 ? kept[0] : `(${kept.join(' and ')})`;
};

const STATUSES = new Set(['open', 'pending', 'closed']);

/** the conditions the list is made of; every value goes through `params` */
const statusLiteral = (value: string) => {
  if (!STATUSES.has(value)) throw new Error(`unknown ticket status ${value}`);

  return `t.status = '${value}'`;
};

/** the conditions the list is made of, for a list filtered by `status` (or not); every value goes through `params` */
export const listConditions = (params: SqlParams, status: string | undefined) => ({
  anyOf,
  allOf,
  /** the status filter itself: a literal (one of three), part of the shape */
  status: statusLiteral,
  /** a rule's test of the status: true or false under a status filter */
  statusIs: (value: string) => (status === undefined ? statusLiteral(value) : status === value ? TRUE : FALSE),
  /** the company's tickets, a flow test run's never (flows/test-run.ts) */
  company: (companyId: number) => `t.company_id = ${params.fixed(companyId, 'int')} and not t.is_test`,
  userIs: (userId: number) => `t.user_id = ${params.fixed(userId, 'int')}`,
  usersIn: (userIds: number[]) => params.anyOf('t.user_id', userIds, 'int'),
  queuesIn: (queueIds: number[]) => (queueIds.length ? params.anyOf('t.queue_id', queueIds, 'int') : FALSE),
  noQueue: () => 't.queue_id is null',
  withUnread: () => 't.unread_messages > 0',
  /** the ticket has every one of these tags */
  hasAllTags: (companyId: number, tagIds: number[]) =>
    `(select count(*) from ticket_tags tt where tt.company_id = ${params.fixed(companyId, 'int')} and tt.ticket_id = t.id and ${params.anyOf('tt.tag_id', tagIds, 'int')}) = ${params.fixed(tagIds.length, 'int')}`,
  /** created (`created_at`) or updated (`updated_at`) on a day of the company's time zone */
  onDay: (column: 'created_at' | 'updated_at', day: string, timeZone: string) =>
    `(t.${column} at time zone ${params.fixed(timeZone, 'text')})::date = ${params.fixed(day.slice(0, 10), 'date')}`,
  /** a search term (see ticket-search.repo.ts for the two shapes) */
  matches: (companyId: number, search: TSearchCondition) => {
    if (!search) return FALSE;
    const query = `to_tsquery('simple'::regconfig, ${params.fixed(search.tsquery, 'text')})`;
    if (search.walk) {
      // common: a per-ticket check the planner cannot turn into a join, made while the list index is walked
      return `(select bool_or(s.words @@ ${query}) from ticket_search s where s.ticket_id = t.id) is true`;
    }

    // rare: the GIN index answers its few tickets once (an init plan), then the list keeps its order
    return `t.id = any(array(select s.ticket_id from ticket_search s where s.company_id = ${params.fixed(companyId, 'int')} and s.words @@ ${query}))`;
  },
});

export type TListConditions = ReturnType<typeof listConditions>;

/**
 * A page row as it comes (arrays, not objects: cheaper to read), in PAGE_COLUMNS' order; timestamps come
 * as the API writes them (isoTimestamps).
 */
export type TListRow = [
  id: number,
  uuid: string,
  companyId: number,
  status: TTicket['status'],
  userId: number | null,
  userName: string | null,
  queueId: number | null,
  queueName: string | null,
  queueColor: string | null,
  whatsappId: number | null,
  whatsappName: string | null,
  whatsappStatus: string | null,
  contactId: number,
  contactName: string,
  contactNumber: string,
  contactEmail: string,
  contactPic: string,
  contactIsGroup: boolean,
  tags: { id: number; name: string; color: string }[],
  isGroup: boolean,
  chatbot: boolean,
  lastMessage: string | null,
  lastMessageAt: string | null,
  unreadMessages: number,
  useIntegration: boolean,
  promptId: number | null,
  integrationId: number | null,
  code: string | null,
  createdAt: string,
  updatedAt: string,
  slaStartedAt: string | null,
  slaFirstResponseDueAt: string | null,
  slaFirstResponseAt: string | null,
  slaResolutionDueAt: string | null,
  /** a counted page's count (or, by ids, the ticket's bot state) */
  extra?: unknown,
];

/** the columns of the answer only (not the ticket's bot and flow state), in TListRow's order */
export const PAGE_COLUMNS = `t.id, t.uuid, t.company_id, t.status, t.user_id, u.name, t.queue_id, q.name, q.color,
  t.whatsapp_id, w.name, w.status, t.contact_id, c.name, c.number, c.email, c.profile_pic_url, c.is_group,
  coalesce(pt.tags, '[]'::json), t.is_group, t.chatbot, t.last_message, t.last_message_at, t.unread_messages,
  t.use_integration, t.prompt_id, t.integration_id, t.code, t.created_at, t.updated_at, t.sla_started_at,
  t.sla_first_response_due_at, t.sla_first_response_at, t.sla_resolution_due_at`;

/** the ticket columns the answer reads, all the page's subquery keeps */
export const TICKET_COLUMNS = `t.id, t.uuid, t.company_id, t.status, t.user_id, t.queue_id, t.whatsapp_id, t.contact_id,
  t.is_group, t.chatbot, t.last_message, t.last_message_at, t.unread_messages, t.use_integration, t.prompt_id,
  t.integration_id, t.code, t.created_at, t.updated_at, t.sla_started_at, t.sla_first_response_due_at,
  t.sla_first_response_at, t.sla_resolution_due_at`;

/** where a counted page's count (or another extra column) sits in its rows, after PAGE_COLUMNS */
export const PAGE_WIDTH = 34;

const ORDER = 'order by t.updated_at desc, t.id desc';

/**
 * The page's tickets are picked first, from `tickets` alone (`page`, with the limit), and only those are
 * joined to their contact, user, queue and connection: however many tickets the condition reads before
 * the page is full or sorted, none is joined for nothing. Their tags are read in one pass for the whole
 * page (one index scan over its ids), not one lookup per ticket.
 */
export const pageFrom = `page t
  join contacts c on c.id = t.contact_id
  left join users u on u.id = t.user_id
  left join queues q on q.id = t.queue_id
  left join whatsapps w on w.id = t.whatsapp_id
  left join (
    select tt.ticket_id, tt.company_id,
      json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name, tg.id) as tags
    from ticket_tags tt join tags tg on tg.id = tt.tag_id
    where tt.ticket_id = any(array(select id from page))
    group by tt.ticket_id, tt.company_id
  ) pt on pt.ticket_id = t.id and pt.company_id = t.company_id`;

/** the API's ticket (spec 1 §3), as ticket-dto.ts `toTicket` makes it, from a list row */
export const toListTicket = (row: TListRow) => {
  const [
    id,
    uuid,
    companyId,
    status,
    userId,
    userName,
    queueId,
    queueName,
    queueColor,
    whatsappId,
    whatsappName,
    whatsappStatus,
    contactId,
    contactName,
    contactNumber,
    contactEmail,
    contactPic,
    contactIsGroup,
    tags,
    isGroup,
    chatbot,
    lastMessage,
    lastMessageAt,
    unreadMessages,
    useIntegration,
    promptId,
    integrationId,
    code,
    createdAt,
    updatedAt,
    slaStartedAt,
    slaFirstResponseDueAt,
    slaFirstResponseAt,
    slaResolutionDueAt,
  ] = row;

  return {
    id,
    uuid,
    companyId,
    status,
    userId,
    user: userId && userName ? { id: userId, name: userName } : null,
    queueId,
    queue: queueId && queueName ? { id: queueId, name: queueName, color: queueColor ?? '' } : null,
    whatsappId,
    whatsapp: whatsappId && whatsappName ? { id: whatsappId, name: whatsappName, status: whatsappStatus ?? '' } : null,
    contactId,
    contact: {
      id: contactId,
      name: contactName,
      number: contactNumber,
      email: contactEmail,
      profilePicUrl: contactPic,
      isGroup: contactIsGroup,
    },
    tags,
    isGroup,
    chatbot,
    lastMessage: lastMessage ?? '',
    lastMessageAt,
    unreadMessages,
    useIntegration,
    promptId,
    integrationId,
    code: code ?? '',
    createdAt,
    updatedAt,
    sla: {
      startedAt: slaStartedAt,
      firstResponseDueAt: slaFirstResponseDueAt,
      firstResponseAt: slaFirstResponseAt,
      resolutionDueAt: slaResolutionDueAt,
    },
  };
};

/** Pages past this one are planned per request: each page is its own statement on every connection. */
const NAMED_PAGES = 5;

/**
 * The page's statement and, alone, the count's, as run. A counted page carries its count in every row (an
 * uncounted subquery, run once): one statement, one connection and one round trip per list. An uncounted
 * page (a search) reads one more row instead.
 */
export const ticketListStatements = (
  where: { text: string; params: SqlParams },
  limit: number,
  offset: number,
  opts: { uncounted?: boolean } = {},
) => {
  const size = opts.uncounted ? limit + 1 : limit;
  // every ticket has its contact (not null, foreign key) and no condition reads the other tables
  const count = `select count(*)::int as total from tickets t where ${where.text}`;
  const columns = opts.uncounted ? PAGE_COLUMNS : `${PAGE_COLUMNS}, (${count}) as total`;
  // limit and offset are literals: a parameter there would leave the planner guessing at 10 % of the rows
  let picked = `select ${TICKET_COLUMNS} from tickets t where ${where.text} ${ORDER} limit ${size | 0}`;
  if (offset > 0) picked += ` offset ${offset | 0}`;
  const page = `with page as materialized (${picked}) select ${columns} from ${pageFrom} ${ORDER}`;

  return { page: where.params.render(page), count: where.params.render(count) };
};

/**
 * A page of the list and its count. `uncounted` (searches) skips the count: one more row is read to know
 * whether more follow, and the count answered is the tickets up to this page plus that one.
 */
export const pageTicketList = async (
  db: TDbOrTx,
  where: { text: string; params: SqlParams },
  limit: number,
  offset: number,
  opts: { uncounted?: boolean } = {},
) => {
  const statements = ticketListStatements(where, limit, offset, opts);
  const rows = await queryRows<TListRow>(db, statements.page.text, statements.page.values, {
    unnamed: offset >= NAMED_PAGES * limit,
    shape: true,
    isoTimestamps: true,
    arrays: true,
  });
  if (opts.uncounted) return { tickets: rows.slice(0, limit).map(toListTicket), total: offset + rows.length };
  if (rows.length > 0) return { tickets: rows.map(toListTicket), total: rows[0][PAGE_WIDTH] as number };
  // nothing on this page: nothing at all on the first, else ask (a page past the end)
  if (offset === 0) return { tickets: [], total: 0 };
  const [{ total }] = await queryRows<{ total: number }>(db, statements.count.text, statements.count.values, {
    shape: true,
  });

  return { tickets: [], total };
};

export type TListTicket = ReturnType<typeof toListTicket>;

/**
 * The API's tickets of these ids (the batched inbound pipeline's announcements), each with its bot state
 * (`dataWebhook.bot`), in one named statement.
 */
const TICKETS_BY_IDS = `with page as materialized (
    select ${TICKET_COLUMNS}, t.data_webhook -> 'bot' as bot from tickets t
    where t.company_id = $1::int and t.id = any($2::int[])
  ) select ${PAGE_COLUMNS}, t.bot from ${pageFrom}`;

export const ticketsByIds = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? []
    : (await queryRows<TListRow>(db, TICKETS_BY_IDS, [companyId, ids], { isoTimestamps: true, arrays: true })).map(
        (r) => ({ ticket: toListTicket(r), bot: r[PAGE_WIDTH] ?? null }),
      );

/**
 * The list rows of these tickets as the list reads them (its columns, a flow test run's tickets never), each with
 * the microseconds of its `updated_at` past the millisecond the API writes (the list orders by all of it): what a
 * kept page takes when their rows changed where they are (list-patch.ts). One named statement.
 */
const LIST_ROWS_BY_IDS = `with page as materialized (
    select ${TICKET_COLUMNS} from tickets t
    where t.company_id = $1::int and t.id = any($2::int[]) and not t.is_test
  ) select ${PAGE_COLUMNS}, extract(microseconds from t.updated_at)::int % 1000 from ${pageFrom}`;

export const listRowsByIds = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? []
    : (await queryRows<TListRow>(db, LIST_ROWS_BY_IDS, [companyId, ids], { isoTimestamps: true, arrays: true })).map(
        (r) => ({ ticket: toListTicket(r), micros: Number(r[PAGE_WIDTH]) }),
      );
