import type { TDbOrTx } from '../../db/client';
import { queryRows } from '../../db/statements';
import {
  PAGE_COLUMNS,
  PAGE_WIDTH,
  pageFrom,
  TICKET_COLUMNS,
  type TListRow,
  toListTicket,
} from '../tickets/ticket-list.repo';

/**
 * The conversation page (`GET /api/messages/:ticketId`): the ticket as the API shows it, a page of its
 * contact's whole history (every ticket of the contact in the company), newest first, and the history's
 * count, in one statement run as a named prepared statement (db/statements.ts), one round trip.
 *
 * - The history is read per ticket of the contact (`tickets_contact_idx`), each ticket's newest
 *   `offset + limit` messages from `messages_ticket_created_idx` (ticket, createdAt desc, id desc), merged
 *   and cut to the page: a page costs the contact's tickets × the page's depth, never the whole history.
 *   (`messages_company_contact_idx` cannot serve it: a group ticket's messages carry their senders.)
 * - Only the page's rows are joined to their sender and quoted message.
 * - The count is read from the same index alone (the tickets are the company's; every message belongs to its
 *   ticket's company).
 * - The messages come as the API's JSON text (`message-dto.ts` `toMessage` makes the same objects), oldest
 *   first as answered, so the server neither parses nor rebuilds them.
 */

/** an ISO timestamp as `Date#toISOString()` writes it (milliseconds truncated) */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const MESSAGE_JSON = `json_build_object(
  'id', m.id, 'companyId', m.company_id, 'ticketId', m.ticket_id, 'contactId', m.contact_id,
  'whatsappId', m.whatsapp_id, 'body', case when m.is_deleted then '' else m.body end, 'fromMe', m.from_me,
  'read', m.read, 'ack', m.ack, 'mediaType', m.media_type,
  'mediaUrl', case when m.is_deleted or coalesce(m.media_url, '') = '' then null else '/public/' || m.media_url end,
  'mediaName', m.media_name, 'isDeleted', m.is_deleted, 'isEdited', m.is_edited, 'isPrivate', m.is_private,
  'source', m.source, 'userId', m.user_id, 'errorCode', m.error_code,
  'errorMessage', case when m.error_code is not null and m.error_code <> '' then m.error_message end,
  'quotedMsg', case when qm.id is not null then json_build_object(
    'id', qm.id, 'body', case when qm.is_deleted then '' else qm.body end, 'fromMe', qm.from_me,
    'mediaType', qm.media_type,
    'contact', case when coalesce(qc.name, '') <> '' then json_build_object('name', qc.name) end) end,
  'contact', case when m.contact_id is not null and coalesce(mc.name, '') <> '' then json_build_object('id', m.contact_id, 'name', mc.name) end,
  'createdAt', ${iso('m.created_at')}, 'updatedAt', ${iso('m.updated_at')})`;

const HISTORY_COLUMNS = `m.id, m.company_id, m.ticket_id, m.contact_id, m.whatsapp_id, m.body, m.from_me, m.read,
  m.ack, m.media_type, m.media_url, m.media_name, m.is_deleted, m.is_edited, m.is_private, m.source, m.user_id,
  m.error_code, m.error_message, m.quoted_msg_id, m.created_at, m.updated_at`;

/** the contact's tickets in the company (the ticket's contact, read from `page`) */
const CONTACT_TICKETS = `select h.id from tickets h
  where h.company_id = $1::int and h.contact_id = (select p.contact_id from page p)`;

export const conversationStatement = (limit: number, offset: number) => {
  const depth = (limit + offset) | 0;
  const history = `select ${HISTORY_COLUMNS} from (${CONTACT_TICKETS}) h
    cross join lateral (
      select ${HISTORY_COLUMNS} from messages m
      where m.ticket_id = h.id and m.company_id = $1::int
      order by m.created_at desc, m.id desc limit ${depth}
    ) m
    order by m.created_at desc, m.id desc limit ${limit | 0} offset ${offset | 0}`;

  return `with page as materialized (
      select ${TICKET_COLUMNS} from tickets t where t.company_id = $1::int and t.id = $2::int
    ), history as materialized (${history})
    select ${PAGE_COLUMNS},
      (select count(*)::int from messages m where m.ticket_id = any(array(${CONTACT_TICKETS}))) as total,
      (select json_agg(${MESSAGE_JSON} order by m.created_at, m.id)
        from history m
        left join contacts mc on mc.id = m.contact_id
        left join messages qm on qm.id = m.quoted_msg_id
        left join contacts qc on qc.id = qm.contact_id)::text as messages
    from ${pageFrom}`;
};

/** Pages past this one run unnamed (planned per call): each page is its own statement on every connection. */
const NAMED_PAGES = 5;

type TConversationRow = [...TListRow, total: number, messages: string | null];

/**
 * The ticket (as the API shows it), the page's messages as the API's JSON text (oldest first) and the count of
 * the contact's whole history; null when the company has no such ticket.
 */
export const conversationPage = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  page: { limit: number; offset: number },
) => {
  const [row] = await queryRows<TConversationRow>(
    db,
    conversationStatement(page.limit, page.offset),
    [companyId, ticketId],
    { unnamed: page.offset >= NAMED_PAGES * page.limit, isoTimestamps: true, arrays: true },
  );
  if (!row) return null;

  return {
    ticket: toListTicket(row as unknown as TListRow),
    total: row[PAGE_WIDTH] as number,
    messagesJson: (row[PAGE_WIDTH + 1] as string | null) ?? '[]',
  };
};
