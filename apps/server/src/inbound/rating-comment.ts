import type { TInboundMessage } from '../channels/types';
import type { TAppContext } from '../lib/context';
import { announceMessageCreated } from '../modules/messages/message-announcer';
import { touchTicketAfterMessage } from '../modules/messages/messages.repo';
import { ratingCommentRequest } from '../modules/tickets/automatic-texts';
import { announceTicket } from '../modules/tickets/ticket-announcer';
import { connectionOfCompany, findTicketPlain } from '../modules/tickets/tickets.repo';
import { insertPipelineMessage, type TConnectionRow } from './inbound.repo';
import { commentWaitOf, endCommentWait, endDueCommentWaits, takeComment } from './rating.repo';
import { sendBotTexts } from './send';

/**
 * The satisfaction survey's optional comment step (issue 25 item 5). The rating itself is spec 1 §9's 1–3
 * (inbound/index.ts `captureRating`, automation.ts for a ticket kept open): with setting `userRatingComment`
 * enabled the rating's reply asks for a comment instead of sending the completion message, and the rating
 * row waits `userRatingCommentMinutes` (`user_ratings.comment_due_at`). The customer's next message within
 * that time — its text or caption — is the comment: stored on the rating and as a message of the closed
 * ticket, then the completion message goes out as it would have after the rating. The wait ends without a
 * comment when the time passes (the expiry scan, each minute, sends the completion message then), or when
 * the next message comes later or carries no text (the completion message goes, and the message is then a
 * new conversation as usual). A ticket reopened meanwhile is no longer waited on and gets no completion.
 * Ratings keep the cycle rated (`ticketTrackingId`) and the agent who held the ticket at the close (`userId`).
 */

/** messages whose text (or caption) can be a comment; a sticker, audio, location or reaction is not one */
const COMMENT_TYPES = new Set(['text', 'image', 'video', 'document', 'button_reply', 'list_reply']);

/** the comment's wait end when the step is on, else null */
export const commentDueAt = (settings: Map<string, string>, at: Date) => {
  if (settings.get('userRatingComment') !== 'enabled') return null;
  const minutes = Number(settings.get('userRatingCommentMinutes')) || 10;

  return new Date(at.getTime() + minutes * 60_000);
};

/** what goes to the customer right after a rating: the comment request, or the completion message */
export const afterRatingText = (dueAt: Date | null, language: string | null | undefined, complation: string) =>
  dueAt ? ratingCommentRequest(language) : complation;

/** stores a customer's reply on its closed ticket (read: it is the survey's, no attendant must act on it) */
export const storeSurveyReply = async (
  ctx: TAppContext,
  connection: TConnectionRow,
  m: TInboundMessage,
  ticket: { id: number; contactId: number },
  at: Date,
) => {
  const companyId = connection.companyId;
  const stored = await insertPipelineMessage(ctx.db, {
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: connection.id,
    externalId: m.externalId,
    source: 'customer',
    body: m.body,
    fromMe: false,
    read: true,
    ack: 3,
    remoteJid: m.from,
  });
  if (!stored) return;
  await touchTicketAfterMessage(ctx.db, companyId, ticket.id, {
    lastMessage: m.body,
    at,
    fromMe: false,
    unread: 'keep',
    words: m.body,
  });
  await announceMessageCreated(ctx, companyId, stored.id);
};

/** the completion message after a wait ended, unless the ticket was reopened meanwhile */
const complete = async (ctx: TAppContext, companyId: number, ticketId: number) => {
  const ticket = await findTicketPlain(ctx.db, companyId, ticketId);
  if (!ticket || ticket.status !== 'closed' || !ticket.whatsappId) return;
  const connection = await connectionOfCompany(ctx.db, companyId, ticket.whatsappId);
  if (connection?.complationMessage.trim())
    await sendBotTexts(ctx, companyId, ticketId, [connection.complationMessage]);
};

/**
 * A customer's message while its rating waits for a comment: answers true when it was the comment (stored,
 * completion sent); false when there was no wait, or the wait ended here (late, or no text) and the message
 * goes on as any other.
 */
export const captureComment = async (ctx: TAppContext, connection: TConnectionRow, m: TInboundMessage, at: Date) => {
  const companyId = connection.companyId;
  const wait = await commentWaitOf(ctx.db, {
    companyId,
    connectionId: connection.id,
    number: m.from.replace(/\D/g, ''),
  });
  if (!wait) return false;
  const comment = COMMENT_TYPES.has(m.type) ? (m.body ?? '').trim() : '';
  if (wait.dueAt.getTime() <= at.getTime() || !comment) {
    if (await endCommentWait(ctx.db, companyId, wait.id, at)) await complete(ctx, companyId, wait.ticketId);
    return false;
  }
  if (!(await takeComment(ctx.db, companyId, wait.id, comment.slice(0, 4000), at))) return false;
  await storeSurveyReply(ctx, connection, m, { id: wait.ticketId, contactId: wait.contactId }, at);
  await complete(ctx, companyId, wait.ticketId);
  await announceTicket(ctx, companyId, wait.ticketId);

  return true;
};

/** the expiry scan (each minute, once across nodes): due waits end, their customers get the completion */
export const expireCommentWaits = async (ctx: TAppContext, now = new Date()) => {
  let ended = 0;
  for (;;) {
    const rows = await endDueCommentWaits(ctx.db, now);
    for (const row of rows) {
      ended += 1;
      try {
        await complete(ctx, row.companyId, row.ticketId);
      } catch (err) {
        ctx.log.warn({ err, ticketId: row.ticketId }, 'completion after the comment wait not sent');
      }
    }
    if (rows.length < 200) return ended;
  }
};
