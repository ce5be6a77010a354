import { events, rooms } from '@zelo/shared';
import type { TAppContext } from '../../lib/context';
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
  ctx.realtime.to(ticketRooms(companyId, ticket), events.appMessage(companyId), {
    action: 'create',
    message,
    ticket,
    contact: ticket.contact,
  });

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
  ctx.realtime.to(list, events.appMessage(companyId), { action: 'update', message });

  return message;
};
