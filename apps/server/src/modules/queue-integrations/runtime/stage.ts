import { and, eq } from 'drizzle-orm';
import { companies, plans, queueIntegrations, queues, whatsapps } from '../../../db/schema';
import { contactById } from '../../../inbound/inbound.repo';
import type { TInboundStage } from '../../../inbound/stages';
import type { TAppContext } from '../../../lib/context';
import type { TIntegrationRow } from '../queue-integrations.repo';
import { enqueueDelivery } from './deliveries';
import { dialogflowTurn } from './dialogflow-turn';
import { holdWithIntegration, readTicket } from './ticket-state';
import { type TTypebotSettings, typebotTurn } from './typebot';

/** a queue integration's Typebot fields as the runtime reads them */
export const typebotSettingsOf = (row: TIntegrationRow): TTypebotSettings => ({
  url: row.urlN8N,
  slug: row.typebotSlug,
  expires: row.typebotExpires,
  keywordFinish: row.typebotKeywordFinish,
  keywordRestart: row.typebotKeywordRestart,
  restartMessage: row.typebotRestartMessage,
  unknownMessage: row.typebotUnknownMessage,
  delayMessage: row.typebotDelayMessage,
});

const integrationOf = async (ctx: TAppContext, companyId: number, id: number) =>
  (
    await ctx.db
      .select()
      .from(queueIntegrations)
      .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)))
  )[0];

const planAllows = async (ctx: TAppContext, companyId: number) => {
  const [row] = await ctx.db
    .select({ use: plans.useIntegrations })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return row?.use === true;
};

const queueIntegrationId = async (ctx: TAppContext, companyId: number, queueId: number) =>
  (
    await ctx.db
      .select({ id: queues.integrationId })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)))
  )[0]?.id ?? null;

const connectionName = async (ctx: TAppContext, companyId: number, id: number) =>
  (
    await ctx.db
      .select({ name: whatsapps.name })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
  )[0]?.name ?? '';

/**
 * The queue integrations' automation stage (reference §2.6 steps 5, 7, 9; issue 14): the integration that holds
 * the ticket (`useIntegration` + `integrationId`: a Typebot chat, a Dialogflow conversation, an n8n / webhook
 * hand-off), else the connection's while the ticket has no queue, else its queue's. Types typebot, dialogflow,
 * n8n and webhook answer the message; flowbuilder is the flow engine's stage (pass). Needs the plan flag.
 */
export const queueIntegrationStage: TInboundStage = {
  name: 'queue-integrations',
  run: async (ctx, input, now) => {
    const { companyId } = input;
    const ticket = await readTicket(ctx.db, companyId, input.ticketId);
    if (!ticket || ticket.status === 'closed' || ticket.userId) return 'pass';
    let integrationId: number | null = null;
    if (ticket.useIntegration && ticket.integrationId) integrationId = ticket.integrationId;
    else if (!ticket.queueId) integrationId = input.connection.integrationId ?? null;
    else integrationId = await queueIntegrationId(ctx, companyId, ticket.queueId);
    if (!integrationId) return 'pass';
    const integration = await integrationOf(ctx, companyId, integrationId);
    if (!integration || integration.type === 'flowbuilder') return 'pass';
    if (!(await planAllows(ctx, companyId))) return 'pass';

    if (integration.type === 'typebot') {
      await typebotTurn(ctx, {
        companyId,
        ticketId: ticket.id,
        settings: typebotSettingsOf(integration),
        body: input.body,
        integrationId: integration.id,
        now,
      });
      return 'handled';
    }
    if (integration.type === 'dialogflow') {
      await dialogflowTurn(ctx, {
        companyId,
        ticket,
        integration,
        body: input.body,
        messageId: input.messageId,
        mediaType: input.mediaType,
      });
      return 'handled';
    }
    // n8n / webhook: the message goes out signed; the answers come back through POST /api/messages/send
    const contact = await contactById(ctx.db, companyId, ticket.contactId);
    await holdWithIntegration(ctx.db, companyId, ticket.id, integration.id);
    const name = await connectionName(ctx, companyId, input.connection.id);
    await enqueueDelivery(
      ctx,
      () => ({
        event: 'message.received',
        companyId,
        integration: { id: integration.id, name: integration.name, type: integration.type as 'n8n' | 'webhook' },
        message: {
          id: input.messageId ?? null,
          body: input.body,
          mediaType: input.mediaType ?? 'chat',
          fromMe: false,
          createdAt: now.toISOString(),
        },
        ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId },
        contact: { id: ticket.contactId, name: contact?.name ?? '', number: contact?.number ?? '' },
        connection: { id: input.connection.id, name },
      }),
      now,
    );
    return 'handled';
  },
};
