import { PAGE_SIZE, type TSendTextBody } from '@zelo/shared';
import type { TMedia } from '../../channels/types';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageWindow } from '../../lib/paging';
import { assertCanSee, loadViewer } from '../tickets/ticket-access';
import { ticketsByIds } from '../tickets/ticket-list.repo';
import { contactOfCompany, findTicketPlain } from '../tickets/tickets.repo';
import { ACCEPT_GREETING_CLIENT_ID, isClientAcceptGreeting } from '../tickets/automatic-texts';
import { markTicketRead } from '../tickets/tickets.service';
import { channelSession } from './channel-access';
import { refreshTicketLastMessage } from './last-message';
import { announceMessageUpdated } from './message-announcer';
import { conversationPage } from './conversation.repo';
import { toMessage } from './message-dto';
import { findMessagePlain, findMessageRow, recentClientIdWithPrefix, updateMessageRow } from './messages.repo';
import { resendFailedMessage, sendTicketMedia, sendTicketText } from './send-message';

const visibleTicket = async (ctx: TAppContext, auth: TAuth, ticketId: number) => {
  const ticket = await findTicketPlain(ctx.db, auth.companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  assertCanSee(await loadViewer(ctx.db, auth), ticket);

  return ticket;
};

/** the ticket facts a kept conversation answer is checked against on every request */
export type TConversationAnswer = {
  body: Buffer;
  ticket: { userId: number | null; queueId: number | null; status: string; unreadMessages: number };
};

/** the attendant of an open ticket reads it; anybody else only looks */
const readsIt = (auth: TAuth, ticket: TConversationAnswer['ticket']) =>
  ticket.status === 'open' && ticket.userId === auth.userId && ticket.unreadMessages > 0;

/**
 * The page as answered (one statement, conversation.repo.ts), whoever may see it: the caller checks that. When
 * the caller attends the open ticket (and so may see it), its read is marked and the ticket read again.
 */
const loadConversation = async (
  ctx: TAppContext,
  auth: TAuth,
  ticketId: number,
  pageNumber: number,
): Promise<TConversationAnswer> => {
  const { limit, offset } = pageWindow(pageNumber, PAGE_SIZE.messages);
  const page = await conversationPage(ctx.db, auth.companyId, ticketId, { limit, offset });
  if (!page) throw new AppError('ERR_NO_TICKET_FOUND');
  let ticket = page.ticket;
  if (readsIt(auth, ticket)) {
    await markTicketRead(ctx, auth.companyId, ticket.id, { receipts: true });
    ticket = (await ticketsByIds(ctx.db, auth.companyId, [ticket.id]))[0]?.ticket ?? ticket;
  }
  const hasMore = page.total > pageNumber * PAGE_SIZE.messages;
  const body = `{"messages":${page.messagesJson},"ticket":${JSON.stringify(ticket)},"count":${page.total},"hasMore":${hasMore}}`;

  return { body: Buffer.from(body), ticket };
};

/**
 * The contact's whole history across its tickets, 20 per page, newest last, with the ticket and the count,
 * as the JSON bytes answered. The answer is the same for everyone who may see the ticket, so it is kept until
 * the company's next announced change (list-answers.ts) under the ticket and page; the viewer (kept a few
 * seconds, like the list's) is checked against it on every request, and the attendant of an open ticket with
 * unread messages always reads it afresh, which marks it read (and announces that).
 */
export const listMessages = async (ctx: TAppContext, auth: TAuth, ticketId: number, pageNumber: number) => {
  const viewer = await ctx.sessions.viewer(auth.companyId, auth.userId, () => loadViewer(ctx.db, auth));
  const load = () => loadConversation(ctx, auth, ticketId, pageNumber);
  const kept = await ctx.conversationAnswers.answer(auth.companyId, `${ticketId} ${pageNumber}`, load);
  assertCanSee(viewer, kept.ticket);

  return readsIt(auth, kept.ticket) ? (await load()).body : kept.body;
};

const sendable = async (ctx: TAppContext, auth: TAuth, ticketId: number) => {
  const ticket = await visibleTicket(ctx, auth, ticketId);
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN', 'The ticket is not open');
  // refused before anything is stored when the connection is not connected
  channelSession(ctx, ticket.whatsappId);

  return ticket;
};

/** the server's accept greeting of the last minutes that a client's own greeting is (automatic-texts.ts) */
const greetingAlreadySent = (ctx: TAppContext, companyId: number, ticketId: number, body: string) =>
  isClientAcceptGreeting(body)
    ? recentClientIdWithPrefix(ctx.db, companyId, ticketId, ACCEPT_GREETING_CLIENT_ID, 10)
    : Promise.resolve(null);

export const sendText = async (ctx: TAppContext, auth: TAuth, ticketId: number, body: TSendTextBody) => {
  const ticket = await sendable(ctx, auth, ticketId);
  const greeting = await greetingAlreadySent(ctx, auth.companyId, ticketId, body.body);
  // answered with the server's greeting (its client id finds it): the customer gets one
  if (greeting)
    return sendTicketText(ctx, {
      companyId: auth.companyId,
      ticketId,
      body: body.body,
      source: 'agent',
      clientId: greeting,
    });
  const message = await sendTicketText(ctx, {
    companyId: auth.companyId,
    ticketId,
    body: body.body,
    source: 'agent',
    userId: auth.userId,
    agentReply: true,
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
    agentReply: true,
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
