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
  /** the status filter itself: a literal (one of three), part of the shape */
  status: statusLiteral,
  /** a rule's test of the status: true or false under a status filter */
  statusIs: (value: string) => (status === undefined ? statusLiteral(value) : status === value ? TRUE : FALSE),
  company: (companyId: number) => `t.company_id = ${params.fixed(companyId, 'int')}`,
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

type TListRow = {
  id: number;
  uuid: string;
  companyId: number;
  status: TTicket['status'];
  userId: number | null;
  userName: string | null;
  queueId: number | null;
  queueName: string | null;
  queueColor: string | null;
  whatsappId: number | null;
  whatsappName: string | null;
  whatsappStatus: string | null;
  contactId: number;
  contactName: string;
  contactNumber: string;
  contactEmail: string;
  contactPic: string;
  contactIsGroup: boolean;
  tags: { id: number; name: string; color: string }[];
  isGroup: boolean;
  chatbot: boolean;
  lastMessage: string | null;
  lastMessageAt: Date | null;
  unreadMessages: number;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  code: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** the columns of the answer only (not the ticket's bot and flow state), named as the mapping reads them */
const PAGE_COLUMNS = `t.id, t.uuid, t.company_id as "companyId", t.status,
  t.user_id as "userId", u.name as "userName",
  t.queue_id as "queueId", q.name as "queueName", q.color as "queueColor",
  t.whatsapp_id as "whatsappId", w.name as "whatsappName", w.status as "whatsappStatus",
  t.contact_id as "contactId", c.name as "contactName", c.number as "contactNumber", c.email as "contactEmail",
  c.profile_pic_url as "contactPic", c.is_group as "contactIsGroup",
  coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name, tg.id)
    from ticket_tags tt join tags tg on tg.id = tt.tag_id
    where tt.company_id = t.company_id and tt.ticket_id = t.id), '[]'::json) as tags,
  t.is_group as "isGroup", t.chatbot, t.last_message as "lastMessage", t.last_message_at as "lastMessageAt",
  t.unread_messages as "unreadMessages", t.use_integration as "useIntegration", t.prompt_id as "promptId",
  t.integration_id as "integrationId", t.code, t.created_at as "createdAt", t.updated_at as "updatedAt"`;

const PAGE_FROM = `tickets t
  join contacts c on c.id = t.contact_id
  left join users u on u.id = t.user_id
  left join queues q on q.id = t.queue_id
  left join whatsapps w on w.id = t.whatsapp_id`;

/** the API's ticket (spec 1 §3), as ticket-dto.ts `toTicket` makes it, from a list row */
const toListTicket = (r: TListRow) => ({
  id: r.id,
  uuid: r.uuid,
  companyId: r.companyId,
  status: r.status,
  userId: r.userId,
  user: r.userId && r.userName ? { id: r.userId, name: r.userName } : null,
  queueId: r.queueId,
  queue: r.queueId && r.queueName ? { id: r.queueId, name: r.queueName, color: r.queueColor ?? '' } : null,
  whatsappId: r.whatsappId,
  whatsapp:
    r.whatsappId && r.whatsappName ? { id: r.whatsappId, name: r.whatsappName, status: r.whatsappStatus ?? '' } : null,
  contactId: r.contactId,
  contact: {
    id: r.contactId,
    name: r.contactName,
    number: r.contactNumber,
    email: r.contactEmail,
    profilePicUrl: r.contactPic,
    isGroup: r.contactIsGroup,
  },
  tags: r.tags,
  isGroup: r.isGroup,
  chatbot: r.chatbot,
  lastMessage: r.lastMessage ?? '',
  lastMessageAt: r.lastMessageAt ? r.lastMessageAt.toISOString() : null,
  unreadMessages: r.unreadMessages,
  useIntegration: r.useIntegration,
  promptId: r.promptId,
  integrationId: r.integrationId,
  code: r.code ?? '',
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Pages past this one are planned per request: each page is its own statement on every connection. */
const NAMED_PAGES = 10;

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
  const size = opts.uncounted ? limit + 1 : limit;
  // limit and offset are literals: a parameter there would leave the planner guessing at 10 % of the rows
  let pageText = `select ${PAGE_COLUMNS} from ${PAGE_FROM} where ${where.text} order by t.updated_at desc, t.id desc limit ${size | 0}`;
  if (offset > 0) pageText += ` offset ${offset | 0}`;
  const pageQuery = where.params.render(pageText);
  const page = queryRows<TListRow>(db, pageQuery.text, pageQuery.values, { unnamed: offset >= NAMED_PAGES * limit });
  if (opts.uncounted) {
    const rows = await page;

    return { tickets: rows.slice(0, limit).map(toListTicket), total: offset + rows.length };
  }
  // every ticket has its contact (not null, foreign key) and no condition reads the other tables
  const countQuery = where.params.render(`select count(*)::int as total from tickets t where ${where.text}`);
  const [rows, [{ total }]] = await Promise.all([
    page,
    queryRows<{ total: number }>(db, countQuery.text, countQuery.values),
  ]);

  return { tickets: rows.map(toListTicket), total };
};

export type TListTicket = ReturnType<typeof toListTicket>;

/**
 * The API's tickets of these ids (the batched inbound pipeline's announcements), each with its bot state
 * (`dataWebhook.bot`), in one named statement.
 */
export const ticketsByIds = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? []
    : (
        await queryRows<TListRow & { bot: unknown }>(
          db,
          `select ${PAGE_COLUMNS}, t.data_webhook -> 'bot' as bot from ${PAGE_FROM}
           where t.company_id = $1 and t.id = any($2::int[])`,
          [companyId, ids],
        )
      ).map((r) => ({ ticket: toListTicket(r), bot: r.bot ?? null }));
