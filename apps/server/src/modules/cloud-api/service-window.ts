import { CUSTOMER_SERVICE_WINDOW_MS, type TChannelProvider, type TChannelWindow } from '@zelo/shared';
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { AppError } from '../../http/errors';

/**
 * The Cloud API's 24-hour customer-service window: free-form messages may go out only within 24 hours of
 * the customer's last message on that connection (our own messages do not reopen it). Computed from the
 * stored inbound messages (index messages_company_contact_idx), so it needs no state of its own; an
 * inbound message is stored with the time WhatsApp gives it. Other transports have no window.
 */

type TTicketRef = { companyId: number; whatsappId: number | null; contactId: number };

export const channelWindowOf = async (db: TDbOrTx, ticket: TTicketRef, now = new Date()): Promise<TChannelWindow> => {
  if (!ticket.whatsappId) return { provider: 'sandbox', applies: false, open: true, expiresAt: null };
  const result = await db.execute<{ provider: string; last_inbound: string | Date | null }>(sql`
    select w.provider,
      (select max(m.created_at) from messages m
        where m.company_id = ${ticket.companyId} and m.contact_id = ${ticket.contactId}
          and m.whatsapp_id = w.id and m.from_me = false and m.source = 'customer'
          and coalesce(m.media_type, '') <> 'call_log') as last_inbound
    from whatsapps w
    where w.id = ${ticket.whatsappId} and w.company_id = ${ticket.companyId}`);
  const row = (result as unknown as { rows: { provider: string; last_inbound: string | Date | null }[] }).rows[0];
  const provider = (row?.provider ?? 'sandbox') as TChannelProvider;
  if (provider !== 'cloud-api') return { provider, applies: false, open: true, expiresAt: null };
  if (!row.last_inbound) return { provider, applies: true, open: false, expiresAt: null };
  const expires = new Date(new Date(row.last_inbound).getTime() + CUSTOMER_SERVICE_WINDOW_MS);

  return { provider, applies: true, open: expires.getTime() > now.getTime(), expiresAt: expires.toISOString() };
};

/**
 * the send path's rule: a free-form message outside the window is refused before anything is stored. A caller that
 * already knows the connection's transport passes it: any other than the Cloud API has no window, nothing is read.
 */
export const assertServiceWindow = async (db: TDbOrTx, ticket: TTicketRef, known?: { provider: string | null }) => {
  if (known && known.provider !== 'cloud-api') return;
  const window = await channelWindowOf(db, ticket);
  if (!window.open) {
    throw new AppError(
      'ERR_WAPP_WINDOW_CLOSED',
      window.expiresAt
        ? `The 24-hour customer service window closed at ${window.expiresAt}; only approved templates can be sent`
        : 'The customer has not written on this connection yet; only approved templates can be sent',
    );
  }
};
