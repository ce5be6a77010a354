import type { TAppContext } from '../../lib/context';
import { announceTicket } from '../tickets/ticket-announcer';
import { messagePreview } from './preview';
import { lockTicketLastMessage, newestShownMessages, setTicketLastMessage } from './messages.repo';

/**
 * After a message was edited or deleted: when it is its ticket's newest message, the ticket's last message
 * becomes its new text, or after a delete the preview of the newest message still shown (empty when none),
 * and who wrote it (`fromMe`) follows; the ticket is then announced (`company-{id}-ticket` update). An older
 * message changes nothing. Decided under the ticket's row lock, so a message stored meanwhile keeps its own
 * preview. The ticket's `lastMessageAt` stays: the idle-close rules count from the last message that
 * happened, deleted or not.
 */
export const refreshTicketLastMessage = async (
  ctx: TAppContext,
  companyId: number,
  message: { id: number; ticketId: number },
) => {
  const changed = await ctx.db.transaction(async (tx) => {
    const ticket = await lockTicketLastMessage(tx, companyId, message.ticketId);
    if (!ticket) return false;
    const [newest, before] = await newestShownMessages(tx, companyId, message.ticketId, message.id);
    if (newest?.id !== message.id) return false;
    const shown = newest.isDeleted ? before : newest;
    const lastMessage = shown ? messagePreview(shown) : '';
    // who spoke last follows the message shown (our deleted answer leaves the customer's word the last)
    const fromMe = shown ? shown.fromMe : ticket.fromMe;
    if (lastMessage === ticket.lastMessage && fromMe === ticket.fromMe) return false;
    await setTicketLastMessage(tx, companyId, message.ticketId, { lastMessage, fromMe });

    return true;
  });
  if (changed) await announceTicket(ctx, companyId, message.ticketId);

  return changed;
};
