/**
 * Messages: the WhatsApp id becomes `externalId` (Zelo numbers its own rows), the connection comes from the
 * ticket, media is copied in (media.ts), the ancestor's invisible markers become `source` (LRM = bot,
 * ZWNJ = campaign), quotes are linked in a second pass once every message is in. Rules: a message of no
 * imported ticket is skipped; a contact gone is dropped (an incoming one takes its ticket's contact); a
 * missing or refused media file is reported and the message kept with its text; a quoted id that is not in
 * the source (or not imported) leaves the message unquoted.
 */
import { sql } from 'drizzle-orm';
import { messages } from '../../../db/schema/messages';
import { rebuildTicketsWords } from '../../../modules/tickets/ticket-search.repo';
import { bool, cleanText, cut, date, idOrNull, int, json } from '../clean';
import { insertRows } from '../insert';
import { ownersOf, type TModel } from '../model';
import { importedContact } from './tickets';

const TEXT_TYPES = new Set(['chat', 'conversation', 'extendedTextMessage', 'text', '']);
const LRM = '\u200e';
const ZWNJ = '\u200c';

type TMessage = typeof messages.$inferInsert;
export const messagesModel: TModel<TMessage> = {
  name: 'messages',
  table: 'Messages',
  key: ['id'],
  required: ['id', 'body', 'ticketId', 'fromMe'],
  optional: [
    'ack',
    'read',
    'mediaType',
    'mediaUrl',
    'createdAt',
    'updatedAt',
    'isDeleted',
    'contactId',
    'quotedMsgId',
    'companyId',
    'remoteJid',
    'dataJson',
    'participant',
    'queueId',
    'isEdited',
  ],
  batch: 1000,
  map: async (r, { state, media }) => {
    const ticketId = idOrNull(r.ticketId);
    const ticket = state.tickets.get(ticketId ?? 0);
    if (!ticket) return { skip: 'message of no imported ticket' };
    const externalId = cleanText(r.id);
    if (!externalId || externalId.length > 128) return { skip: 'message id empty or longer than 128 characters' };
    const adjusted: string[] = [];
    const fromMe = bool(r.fromMe, false);
    let body = cleanText(r.body);
    if (body !== String(r.body ?? '')) adjusted.push('NUL bytes or lone surrogates removed from the text');
    let source: TMessage['source'] = fromMe ? 'agent' : 'customer';
    if (fromMe && body.startsWith(LRM)) {
      source = 'bot';
      body = body.slice(1);
    } else if (fromMe && body.startsWith(ZWNJ)) {
      source = 'campaign';
      body = body.slice(1);
    }
    let contactId = importedContact(state, idOrNull(r.contactId));
    if (contactId !== null && ownersOf(state, 'contacts').get(contactId) !== ticket.companyId) contactId = null;
    if (contactId === null && !fromMe) {
      if (idOrNull(r.contactId) !== null) adjusted.push("contact gone: the ticket's contact is used");
      contactId = ticket.contactId;
    }
    let mediaType: string | null = cut(r.mediaType, 40) || null;
    let mediaUrl: string | null = null;
    let mediaName: string | null = null;
    let mediaMime: string | null = null;
    if (r.mediaUrl) {
      const copied = await media(r.mediaUrl);
      if (copied && 'stored' in copied) {
        mediaUrl = copied.stored;
        mediaName = cut(copied.name, 255);
        mediaMime = copied.mime;
        mediaType ??= copied.mime.split('/')[0];
        if (body === '-') body = '';
      } else if (copied) {
        adjusted.push(copied.problem);
        mediaType = null;
      }
    } else if (mediaType && TEXT_TYPES.has(mediaType)) mediaType = null;
    const data = json(r.dataJson);
    if (r.dataJson && data === undefined) adjusted.push('raw message not JSON: dropped');
    const createdAt = date(r.createdAt, new Date())!;

    return {
      adjusted,
      row: {
        companyId: ticket.companyId,
        ticketId: ticketId!,
        contactId,
        whatsappId: ticket.whatsappId,
        externalId,
        source,
        body,
        fromMe,
        read: bool(r.read, fromMe),
        ack: Math.min(5, int(r.ack, 0)),
        mediaType,
        mediaUrl,
        mediaName,
        mediaMime,
        isDeleted: bool(r.isDeleted, false),
        isEdited: bool(r.isEdited, false),
        remoteJid: cut(r.remoteJid, 128) || null,
        participant: cut(r.participant, 128) || null,
        dataJson: data && typeof data === 'object' ? (data as Record<string, unknown>) : null,
        createdAt,
        updatedAt: date(r.updatedAt, createdAt) ?? undefined,
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, messages, rows);
    return undefined;
  },
};

type TQuote = { e: string; q: string; w: number | null };
/** second pass: the messages that quote another point at its Zelo row */
export const quotesModel: TModel<TQuote> = {
  name: 'message quotes',
  table: 'Messages',
  key: ['id'],
  required: ['id', 'quotedMsgId', 'ticketId'],
  where: '"quotedMsgId" is not null and "quotedMsgId" <> \'\'',
  select: 'id, "quotedMsgId", "ticketId"',
  batch: 2000,
  prepare: async (query, state) => {
    state.quoted.clear();
    const rows = await query(
      'select q.id, q."ticketId" from "Messages" q where q.id in (select "quotedMsgId" from "Messages" where "quotedMsgId" is not null)',
    );
    for (const r of rows) state.quoted.set(String(r.id), Number(r.ticketId));
  },
  map: (r, { state }) => {
    const ticket = state.tickets.get(idOrNull(r.ticketId) ?? 0);
    if (!ticket) return { skip: 'message not imported' };
    const quotedTicket = state.quoted.get(String(r.quotedMsgId));
    if (quotedTicket === undefined) return { skip: 'quoted message not in the source: kept unquoted' };
    const other = state.tickets.get(quotedTicket);
    if (!other || other.companyId !== ticket.companyId || other.whatsappId !== ticket.whatsappId) {
      return { skip: 'quoted message not imported: kept unquoted' };
    }

    return { row: { e: String(r.id), q: String(r.quotedMsgId), w: ticket.whatsappId } };
  },
  write: async (tx, rows) => {
    const withConnection = rows.filter((r) => r.w !== null);
    const without = rows.filter((r) => r.w === null);
    if (withConnection.length) {
      await tx.execute(sql`
        update messages m set quoted_msg_id = q.id
        from json_to_recordset(${JSON.stringify(withConnection)}::json) as v(e text, q text, w int), messages q
        where m.whatsapp_id = v.w and m.external_id = v.e and q.whatsapp_id = v.w and q.external_id = v.q
          and q.company_id = m.company_id`);
    }
    if (without.length) {
      await tx.execute(sql`
        update messages m set quoted_msg_id = q.id
        from json_to_recordset(${JSON.stringify(without)}::json) as v(e text, q text), messages q
        where m.whatsapp_id is null and m.external_id = v.e and q.whatsapp_id is null and q.external_id = v.q
          and q.company_id = m.company_id`);
    }
    return undefined;
  },
};

/**
 * Last pass over Tickets: each ticket's search words (its contact's name and number, its messages' text) built
 * once from what was imported, as Zelo rebuilds them after an edit, instead of growing them batch by batch.
 */
export const ticketWordsModel: TModel<{ id: number; companyId: number }> = {
  name: 'ticket search words',
  table: 'Tickets',
  key: ['id'],
  required: ['id'],
  select: 'id',
  batch: 500,
  // the rebuild reads each ticket's messages by index only once the planner knows how many there are
  before: async (db) => {
    await db.execute(sql`analyze tickets, contacts, messages, ticket_search`);
  },
  map: (r, { state }) => {
    const id = idOrNull(r.id)!;
    const ticket = state.tickets.get(id);
    if (!ticket) return { skip: 'ticket not imported' };

    return { row: { id, companyId: ticket.companyId } };
  },
  write: async (tx, rows) => {
    const byCompany = new Map<number, number[]>();
    for (const r of rows) {
      const ids = byCompany.get(r.companyId) ?? [];
      ids.push(r.id);
      byCompany.set(r.companyId, ids);
    }
    for (const [companyId, ids] of byCompany) await rebuildTicketsWords(tx, companyId, ids);
    return undefined;
  },
};
