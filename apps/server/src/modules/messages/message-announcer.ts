import { events, rooms } from '@zelo/shared';
import { inArray } from 'drizzle-orm';
import { contacts } from '../../db/schema/contacts';
import { tickets } from '../../db/schema/tickets';
import type { TAppContext } from '../../lib/context';
import type { TListChange } from '../tickets/list-answers';
import { placesOf, rowChangedAt } from '../tickets/ticket-announcer';
import { ticketRooms } from '../tickets/ticket-access';
import { loadTicketDto } from '../tickets/ticket-dto';
import { findTicketPlain } from '../tickets/tickets.repo';
import type { TTicketDto } from '../tickets/ticket-dto';
import { toMessage, type TMessageDto } from './message-dto';
import { findMessageRow, type TMessageRow } from './messages.repo';

const NO_QUOTE = {
  quotedId: null,
  quotedBody: null,
  quotedFromMe: null,
  quotedMediaType: null,
  quotedIsDeleted: null,
  quotedContactName: null,
};

/** the API's message from a row just stored that quotes nothing, with its sender's name */
export const storedMessageDto = (ctx: TAppContext, message: TMessageRow, contactName: string | null) =>
  toMessage(ctx.config, { ...NO_QUOTE, message, contactName });

/**
 * `company-{id}-appMessage` `{action:'create', message, ticket, contact}` to the rooms allowed to see the
 * ticket (status, queue, notification, ticket and user rooms).
 */
export const emitMessageCreated = (ctx: TAppContext, companyId: number, message: TMessageDto, ticket: TTicketDto) =>
  ctx.realtime.to(
    ticketRooms(companyId, ticket),
    events.appMessage(companyId),
    { action: 'create', message, ticket, contact: ticket.contact },
    undefined,
    // the ticket's row changed (last message, time, unread count) where it is
    rowChangedAt(ticket),
  );

/**
 * A message's ack or failure changes no list row (the lists show the ticket's last message, whose changes are
 * announced with the ticket): only the conversation pages and other answers without a scope are touched.
 */
export const RECEIPT_ONLY: TListChange = { places: [] };

/** announces a stored message (emitMessageCreated), read with its ticket. Call after the transaction commits. */
export const announceMessageCreated = async (
  ctx: TAppContext,
  companyId: number,
  messageId: number,
  /** the row just stored and its sender's name: read again only when it quotes another message */
  known?: { message: TMessageRow; contactName: string | null },
) => {
  const row =
    known && known.message.id === messageId && known.message.quotedMsgId === null
      ? { ...NO_QUOTE, message: known.message, contactName: known.contactName }
      : await findMessageRow(ctx.db, companyId, messageId);
  if (!row) return null;
  const ticket = await loadTicketDto(ctx.db, companyId, row.message.ticketId);
  if (!ticket) return null;
  const message = toMessage(ctx.config, row);
  emitMessageCreated(ctx, companyId, message, ticket);

  return message;
};

/** `{action:'update', message}` (ack, edit, delete) to the ticket's room and its attendant */
export const announceMessageUpdated = async (ctx: TAppContext, companyId: number, messageId: number) => {
  const row = await findMessageRow(ctx.db, companyId, messageId);
  if (!row) return null;
  const message = toMessage(ctx.config, row);
  const ticket = await findTicketPlain(ctx.db, companyId, row.message.ticketId);
  const list = [rooms.ticket(companyId, message.ticketId)];
  if (ticket?.userId) list.push(rooms.user(companyId, ticket.userId));
  // an edited or deleted text changes its ticket's search words (a search list may gain or lose the ticket)
  const retold = ticket && (row.message.isEdited || row.message.isDeleted);
  const change = retold ? placesOf(ticket) : RECEIPT_ONLY;
  ctx.realtime.to(list, events.appMessage(companyId), { action: 'update', message }, undefined, change);

  return message;
};

/**
 * announceMessageUpdated for rows just changed (a batch of acks): their senders' names and tickets' attendants read
 * once for the batch instead of each row read again; a row that quotes another is read again with its quote.
 */
export const announceMessagesUpdated = async (ctx: TAppContext, rows: TMessageRow[]) => {
  const plain = rows.filter((r) => r.quotedMsgId === null);
  for (const row of rows) if (row.quotedMsgId !== null) await announceMessageUpdated(ctx, row.companyId, row.id);
  if (plain.length === 0) return;
  const contactIds = [...new Set(plain.map((r) => r.contactId).filter((id): id is number => id !== null))];
  const ticketIds = [...new Set(plain.map((r) => r.ticketId))];
  const [names, owners] = await Promise.all([
    contactIds.length
      ? ctx.db.select({ id: contacts.id, name: contacts.name }).from(contacts).where(inArray(contacts.id, contactIds))
      : [],
    ctx.db.select({ id: tickets.id, userId: tickets.userId }).from(tickets).where(inArray(tickets.id, ticketIds)),
  ]);
  const nameOf = new Map(names.map((c) => [c.id, c.name]));
  const userOf = new Map(owners.map((t) => [t.id, t.userId]));
  for (const row of plain) {
    const message = storedMessageDto(ctx, row, row.contactId === null ? null : (nameOf.get(row.contactId) ?? null));
    const list = [rooms.ticket(row.companyId, row.ticketId)];
    const userId = userOf.get(row.ticketId);
    if (userId) list.push(rooms.user(row.companyId, userId));
    ctx.realtime.to(list, events.appMessage(row.companyId), { action: 'update', message }, undefined, RECEIPT_ONLY);
  }
};
