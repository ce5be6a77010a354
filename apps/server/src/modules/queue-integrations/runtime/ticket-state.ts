import { and, eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client';
import { tickets } from '../../../db/schema';

/**
 * The integration state a ticket carries: `useIntegration` + `integrationId` (an integration holds the
 * conversation), `typebotSessionId` + `typebotStatus` (a Typebot chat under way) and, in
 * `dataWebhook.integration`, when the Typebot session last moved (its expiry) and the Dialogflow session id.
 * `dataWebhook` is shared with the flow engine and the bot: only this key is written, merged in SQL.
 */
export type TIntegrationTicketState = { typebotAt?: string; dialogflowSession?: string };

const where = (companyId: number, ticketId: number) => and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId));

const mergeState = (state: TIntegrationTicketState | null) =>
  sql`coalesce(${tickets.dataWebhook}, '{}'::jsonb) || jsonb_build_object('integration', ${JSON.stringify(state ?? {})}::jsonb)`;

export const integrationStateOf = (ticket: { dataWebhook: unknown }): TIntegrationTicketState =>
  ((ticket.dataWebhook ?? {}) as { integration?: TIntegrationTicketState }).integration ?? {};

export const readTicket = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (await db.select().from(tickets).where(where(companyId, ticketId)))[0] ?? null;

/** a Typebot session started (or moved) now; `integrationId` also marks the integration as holding the ticket */
export const saveTypebotSession = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  sessionId: string,
  now: Date,
  integrationId?: number,
) =>
  db
    .update(tickets)
    .set({
      typebotSessionId: sessionId,
      typebotStatus: true,
      ...(integrationId ? { useIntegration: true, integrationId } : {}),
      dataWebhook: mergeState({ typebotAt: now.toISOString() }),
    })
    .where(where(companyId, ticketId));

export const clearTypebotSession = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  db
    .update(tickets)
    .set({ typebotSessionId: null, typebotStatus: false, dataWebhook: mergeState(null) })
    .where(where(companyId, ticketId));

/** the integration lets the ticket go: the classic chain (and attendants) take it from here */
export const leaveIntegration = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  db
    .update(tickets)
    .set({
      useIntegration: false,
      integrationId: null,
      typebotSessionId: null,
      typebotStatus: false,
      chatbot: false,
      dataWebhook: mergeState(null),
      updatedAt: new Date(),
    })
    .where(where(companyId, ticketId));

/** an integration took the ticket (n8n, webhook, Dialogflow): later messages go to it while it has no queue */
export const holdWithIntegration = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  integrationId: number,
  state?: TIntegrationTicketState,
) =>
  db
    .update(tickets)
    .set({
      useIntegration: true,
      integrationId,
      ...(state ? { dataWebhook: mergeState(state) } : {}),
    })
    .where(where(companyId, ticketId));
