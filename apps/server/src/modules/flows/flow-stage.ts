import { and, eq, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { queueIntegrations } from '../../db/schema/automation';
import { flowRuns } from '../../db/schema/flow-runs';
import { queues } from '../../db/schema/queues';
import { tickets } from '../../db/schema/tickets';
import { ticketById } from '../../inbound/inbound.repo';
import type { TInboundStage, TStageInput } from '../../inbound/stages';
import type { TAppContext } from '../../lib/context';
import { resumeFlowRun, startFlowRun } from './engine/runner';
import { flowForPhrase } from './phrase-cache';

/**
 * The flow engine's automation stage (first in AUTOMATION_STAGES), for a stored customer message on a ticket
 * no attendant holds:
 * 1. a run waiting on this ticket resumes with the message;
 * 2. an active phrase campaign of this connection whose phrase equals the whole message (case- and
 *    accent-insensitive) starts its flow — no integration needed;
 * 3. a `flowbuilder` integration of the connection (ticket without a queue) or of the ticket's queue starts
 *    its named flow;
 * 4. without a queue: the connection's `flowIdWelcome` for a first contact (no earlier ticket of that contact
 *    on that connection), else its `flowIdNotPhrase`.
 * A `flowbuilder` integration that names no flow (the ancestor's dialog never sends one) runs the connection's
 * own flows — steps 2 and 4 — also for a ticket in a queue, as the ancestor's does.
 * Triggers 3 and 4 start a flow once per ticket (a ticket that already had a run is left to the next stages).
 */

/** the flow of a `flowbuilder` integration: its id, null when it names none, undefined without one */
const integrationFlow = async (db: TDbOrTx, companyId: number, integrationId: number | null) => {
  if (!integrationId) return undefined;
  const [row] = await db
    .select({ flowId: queueIntegrations.flowId })
    .from(queueIntegrations)
    .where(
      and(
        eq(queueIntegrations.companyId, companyId),
        eq(queueIntegrations.id, integrationId),
        eq(queueIntegrations.type, 'flowbuilder'),
      ),
    );

  return row ? row.flowId : undefined;
};

const queueIntegrationOf = async (db: TDbOrTx, companyId: number, queueId: number) =>
  (
    await db
      .select({ integrationId: queues.integrationId })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)))
  )[0]?.integrationId ?? null;

const hadRun = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select({ id: flowRuns.id })
      .from(flowRuns)
      .where(and(eq(flowRuns.companyId, companyId), eq(flowRuns.ticketId, ticketId)))
      .limit(1)
  ).length > 0;

/** whether the contact had a ticket on this connection before this one */
const hadEarlierTicket = async (
  db: TDbOrTx,
  ticket: { id: number; companyId: number; contactId: number; whatsappId: number | null },
) =>
  (
    await db
      .select({ n: sql<number>`1` })
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, ticket.companyId),
          eq(tickets.contactId, ticket.contactId),
          eq(tickets.whatsappId, ticket.whatsappId ?? 0),
          ne(tickets.id, ticket.id),
        ),
      )
      .limit(1)
  ).length > 0;

export const runFlowStage = async (ctx: TAppContext, input: TStageInput): Promise<'handled' | 'pass'> => {
  const { companyId, ticketId, connection } = input;
  const extra = { messageId: input.messageId, mediaType: input.mediaType };

  // 1. a waiting run
  const resumed = await resumeFlowRun(ctx, { companyId, ticketId, body: input.body, ...extra });
  if (resumed === 'handled') return 'handled';
  if (resumed === 'offer-queues') return 'pass';

  // the ticket as the automation read it before the stages (this stage is the first; a resume that answered
  // `none` changed no column read here), else read now
  const ticket =
    input.known?.ticket?.id === ticketId ? input.known.ticket : await ticketById(ctx.db, companyId, ticketId);
  if (!ticket || ticket.userId || ticket.status === 'closed') return 'pass';
  const start = async (flowId: number | null) => {
    if (!flowId) return false;
    const started = await startFlowRun(ctx, { companyId, ticketId, flowId, body: input.body, ...extra });
    return !!started && !started.offerQueues;
  };

  // the flowbuilder integration of the connection or of the ticket's queue
  const integrationId = ticket.queueId
    ? await queueIntegrationOf(ctx.db, companyId, ticket.queueId)
    : connection.integrationId;
  const integrated = await integrationFlow(ctx.db, companyId, integrationId);
  const connectionFlows = !ticket.queueId || integrated === null;

  // 2. a phrase of this connection
  if (connectionFlows) {
    const phraseFlow = await flowForPhrase(ctx.db, companyId, connection.id, input.body);
    if (phraseFlow && (await start(phraseFlow))) return 'handled';
  }

  if (ticket.flowStopped !== null || (await hadRun(ctx.db, companyId, ticketId))) return 'pass';

  // 3. the integration's named flow
  if (integrated && (await start(integrated))) return 'handled';

  // 4. the connection's welcome flow, or its flow when no phrase matched
  if (!connectionFlows) return 'pass';
  if (!connection.flowIdWelcome && !connection.flowIdNotPhrase) return 'pass';
  const firstContact = !(await hadEarlierTicket(ctx.db, ticket));
  const flowId = firstContact ? connection.flowIdWelcome : connection.flowIdNotPhrase;
  if (await start(flowId)) return 'handled';

  return 'pass';
};

export const flowStage: TInboundStage = {
  name: 'flows',
  run: (ctx, input) => runFlowStage(ctx, input),
};
