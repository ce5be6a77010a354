import { PAGE_SIZE, type TSendTextBody } from '@zelo/shared';
import type { TMedia } from '../../channels/types';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { assertCanSee, loadViewer } from '../tickets/ticket-access';
import { loadTicketDto } from '../tickets/ticket-dto';
import { contactOfCompany, findTicketPlain } from '../tickets/tickets.repo';
import { markTicketRead } from '../tickets/tickets.service';
import { channelSession } from './channel-access';
import { refreshTicketLastMessage } from './last-message';
import { announceMessageUpdated } from './message-announcer';
import { toMessage } from './message-dto';
import { findMessagePlain, findMessageRow, pageContactHistory, updateMessageRow } from './messages.repo';
import { resendFailedMessage, sendTicketMedia, sendTicketText } from './send-message';

const visibleTicket = async (ctx: TAppContext, auth: TAuth, ticketId: number) => {
  const ticket = await findTicketPlain(ctx.db, auth.companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  assertCanSee(await loadViewer(ctx.db, auth), ticket);

  return ticket;
};

/** the contact's whole history across its tickets, 20 per page, newest last */
export const listMessages = async (ctx: TAppContext, auth: TAuth, ticketId: number, pageNumber: number) => {
  const ticket = await visibleTicket(ctx, auth, ticketId);
  const { limit, offset } = pageWindow(pageNumber, PAGE_SIZE.messages);
  const { rows, total } = await pageContactHistory(ctx.db, auth.companyId, ticket.contactId, limit, offset);
  const page = pageAnswer(rows, total, pageNumber, PAGE_SIZE.messages);
  // the attendant of an open ticket reads it; anybody else only looks
  if (ticket.status === 'open' && ticket.userId === auth.userId && ticket.unreadMessages > 0) {
    await markTicketRead(ctx, auth.companyId, ticket.id, { receipts: true });
  }

  return {
    messages: page.rows.map((r) => toMessage(ctx.config, r)).reverse(),
    ticket: await loadTicketDto(ctx.db, auth.companyId, ticket.id),
    count: page.count,
    hasMore: page.hasMore,
  };
};

const sendable = async (ctx: TAppContext, auth: TAuth, ticketId: number) => {
  const ticket = await visibleTicket(ctx, auth, ticketId);
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN', 'The ticket is not open');
  // refused before anything is stored when the connection is not connected
  channelSession(ctx, ticket.whatsappId);

  return ticket;
};

export const sendText = async (ctx: TAppContext, auth: TAuth, ticketId: number, body: TSendTextBody) => {
  const ticket = await sendable(ctx, auth, ticketId);
  const message = await sendTicketText(ctx, {
    companyId: auth.companyId,
    ticketId,
    body: body.body,
    source: 'agent',
    userId: auth.userId,
    quotedMessageId: body.quotedMsg?.id ?? null,
    clientId: body.clientId ?? null,
  });
  if (ticket.userId === auth.userId) await markTicketRead(ctx, auth.companyId, ticketId, { receipts: true });

  return message;
};

export const sendMedia = async (
  ctx: TAppContext,
  auth: TAuth,
  ticketId: number,
  input: { files: TMedia[]; bodies: string[]; quotedMessageId?: number | null; clientId?: string | null },
) => {
  const ticket = await sendable(ctx, auth, ticketId);
  const sent = await sendTicketMedia(ctx, {
    companyId: auth.companyId,
    ticketId,
    files: input.files,
    bodies: input.bodies,
    source: 'agent',
    userId: auth.userId,
    quotedMessageId: input.quotedMessageId ?? null,
    clientId: input.clientId ?? null,
  });
  if (ticket.userId === auth.userId) await markTicketRead(ctx, auth.companyId, ticketId, { receipts: true });

  return sent;
};

/** own messages only: the author, checked here */
const ownMessage = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const message = await findMessagePlain(ctx.db, auth.companyId, id);
  if (!message) throw new AppError('ERR_NOT_FOUND', 'Message not found');
  const ticket = await visibleTicket(ctx, auth, message.ticketId);
  if (!message.fromMe || message.userId !== auth.userId) {
    throw new AppError('ERR_NO_PERMISSION', 'Only the author may change a message');
  }
  const contact = await contactOfCompany(ctx.db, auth.companyId, ticket.contactId);

  return { message, ticket, number: contact?.number ?? '' };
};

export const deleteMessage = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const { message, ticket, number } = await ownMessage(ctx, auth, id);
  if (message.isDeleted) return toMessage(ctx.config, (await findMessageRow(ctx.db, auth.companyId, id))!);
  if (message.externalId) {
    try {
      await channelSession(ctx, message.whatsappId).deleteMessage(number, message.externalId, {
        fromMe: true,
        isGroup: ticket.isGroup,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') throw err;
      ctx.log.warn({ err, id }, 'channel delete failed');
      throw new AppError('ERR_DELETE_WAPP_MSG');
    }
  }
  await updateMessageRow(ctx.db, auth.companyId, id, { isDeleted: true });
  const updated = await announceMessageUpdated(ctx, auth.companyId, id);
  await refreshTicketLastMessage(ctx, auth.companyId, message);

  return updated;
};

export const editMessage = async (ctx: TAppContext, auth: TAuth, id: number, body: string) => {
  const { message, ticket, number } = await ownMessage(ctx, auth, id);
  if (message.isDeleted || message.mediaType || message.isPrivate) {
    throw new AppError('ERR_VALIDATION', 'Only a text message can be edited', [{ path: 'id', message: 'invalid' }]);
  }
  if (message.externalId) {
    try {
      await channelSession(ctx, message.whatsappId).editMessage(number, message.externalId, body, {
        isGroup: ticket.isGroup,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') throw err;
      ctx.log.warn({ err, id }, 'channel edit failed');
      throw new AppError('ERR_SENDING_WAPP_MSG');
    }
  }
  await updateMessageRow(ctx.db, auth.companyId, id, { body, isEdited: true });
  const updated = await announceMessageUpdated(ctx, auth.companyId, id);
  await refreshTicketLastMessage(ctx, auth.companyId, message);

  return updated;
};

/** sends an own failed message again (ack 0 with an error), on an open ticket */
export const retryMessage = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const { message } = await ownMessage(ctx, auth, id);
  if (message.isDeleted || message.isPrivate || message.ack !== 0 || !message.errorCode) {
    throw new AppError('ERR_CONFLICT', 'Only a failed message can be sent again');
  }
  await sendable(ctx, auth, message.ticketId);

  return resendFailedMessage(ctx, message);
};

/** the attendant read the ticket: unread 0, read receipts when it is open */
export const readTicket = async (ctx: TAppContext, auth: TAuth, ticketId: number) => {
  const ticket = await visibleTicket(ctx, auth, ticketId);
  await markTicketRead(ctx, auth.companyId, ticket.id, { receipts: ticket.userId === auth.userId || auth.isAdmin });

  return { ok: true };
};
