import { AppError } from '../http/errors';
import type { TAppContext } from '../lib/context';
import { sendTicketText } from '../modules/messages/send-message';

/**
 * The pipeline's own messages (menus, greetings, out-of-hours, completion, inactivity): stored, sent and
 * announced by the messages service with `source: 'bot'`, so they are never taken for customer input.
 * A failed send is recorded on its message by that service; a connection that is not connected stops
 * the rest of the batch (nothing is stored for them).
 */
export const sendBotTexts = async (ctx: TAppContext, companyId: number, ticketId: number, bodies: string[]) => {
  let sent = 0;
  for (const body of bodies) {
    if (!body.trim()) continue;
    try {
      await sendTicketText(ctx, { companyId, ticketId, body, source: 'bot' });
      sent += 1;
    } catch (err) {
      ctx.log.warn({ err, companyId, ticketId }, 'automatic message not sent');
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') break;
    }
  }

  return sent;
};
