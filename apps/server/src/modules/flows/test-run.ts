import { randomInt } from 'node:crypto';
import type { TFlowRunAnswer, TFlowTestRunAnswer } from '@zelo/shared';
import { and, asc, eq } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/connections';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { findOrCreateContact } from '../messages/store-inbound';
import { findOrCreateTicketForInbound } from '../tickets/ticket-lifecycle';
import { startFlowRun } from './engine/runner';
import { runWithSteps } from './engine/runs.repo';
import { loadFlow } from './flows.service';

/**
 * The editor's "Test" (issue 14 item 6): a fresh simulated customer on the company's sandbox connection,
 * its ticket, and the flow started on it even when inactive. The simulator then plays that customer
 * (`POST /api/sandbox/:connectionId/inbound` with `from: contactNumber`); each executed node is announced
 * on `company-{id}-flowrun` with the variables so far.
 */

const sandboxConnection = async (ctx: TAppContext, companyId: number) =>
  (
    await ctx.db
      .select({ id: whatsapps.id, status: whatsapps.status })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.provider, 'sandbox')))
      .orderBy(asc(whatsapps.id))
  ).sort((a, b) => Number(b.status === 'CONNECTED') - Number(a.status === 'CONNECTED'))[0];

/** a number no real customer has: 55 00 9 and eight random digits */
const testNumber = () => `55009${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

export const startTestRun = async (
  ctx: TAppContext,
  auth: TAuth,
  flowId: number,
  body: { contactName?: string },
): Promise<TFlowTestRunAnswer> => {
  const flow = await loadFlow(ctx, auth.companyId, flowId);
  if (!flow.flow?.nodes?.some((n) => (n as { type?: unknown }).type === 'start')) {
    throw new AppError('ERR_FLOW_START_NODE', 'The flow has no start node');
  }
  const connection = await sandboxConnection(ctx, auth.companyId);
  if (!connection) throw new AppError('ERR_NO_SANDBOX_CONNECTION');
  const contactNumber = testNumber();
  const contactName = body.contactName?.trim() || `Teste ${contactNumber.slice(-4)}`;
  const { contact } = await findOrCreateContact(ctx, {
    companyId: auth.companyId,
    connectionId: connection.id,
    number: contactNumber,
    name: contactName,
    isGroup: false,
  });
  const { ticket } = await findOrCreateTicketForInbound(ctx, {
    companyId: auth.companyId,
    connectionId: connection.id,
    contactId: contact.id,
    isGroup: false,
    reopenWindowMinutes: 0,
  });
  const started = await startFlowRun(ctx, {
    companyId: auth.companyId,
    ticketId: ticket.id,
    flowId: flow.id,
    test: true,
  });
  if (!started) throw new AppError('ERR_NO_FLOW_FOUND');

  return {
    runId: started.runId,
    flowId: flow.id,
    ticketId: ticket.id,
    contactId: contact.id,
    connectionId: connection.id,
    contactNumber,
    contactName: contact.name,
  };
};

export const getRun = async (ctx: TAppContext, auth: TAuth, runId: number): Promise<TFlowRunAnswer> => {
  const found = await runWithSteps(ctx.db, auth.companyId, runId);
  if (!found) throw new AppError('ERR_NO_FLOW_RUN_FOUND');
  const { run, steps } = found;

  return {
    run: {
      id: run.id,
      flowId: run.flowId ?? 0,
      ticketId: run.ticketId,
      status: run.status as TFlowRunAnswer['run']['status'],
      nodeId: run.nodeId,
      variables: run.variables ?? {},
      test: run.test,
      createdAt: run.createdAt.toISOString(),
      updatedAt: run.updatedAt.toISOString(),
    },
    steps: steps.map((s) => ({
      nodeId: s.nodeId,
      nodeType: s.nodeType,
      status: s.status as TFlowRunAnswer['run']['status'],
      reason: s.reason,
      at: s.createdAt.toISOString(),
    })),
  };
};
