import { randomInt } from 'node:crypto';
import type { TFlowRunAnswer, TFlowTestRunAnswer } from '@zelo/shared';
import { and, asc, eq } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/connections';
import type { TAuth } from '../../http/authenticate';
import type { TJobDefinition } from '../../jobs/boss';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { removeMediaFile } from '../messages/media';
import { findOrCreateContact } from '../messages/store-inbound';
import { findOrCreateTicketForInbound } from '../tickets/ticket-lifecycle';
import { startFlowRun } from './engine/runner';
import { activeTestRuns, runWithSteps } from './engine/runs.repo';
import { loadFlow } from './flows.service';
import {
  deleteTestCustomer,
  idleTestCustomers,
  mediaOfContact,
  type TTestCustomer,
  testCustomerOfRun,
} from './test-run.repo';

/**
 * The editor's "Test" (issue 14 item 6): a fresh simulated customer on the company's sandbox connection,
 * its ticket, and the flow started on it even when inactive. The simulator then plays that customer
 * (`POST /api/sandbox/:connectionId/inbound` with `from: contactNumber`); each executed node is announced
 * on `company-{id}-flowrun` with the variables so far.
 *
 * A test leaves no trace in the company's data: its contact and tickets carry `isTest`, so no ticket list, kanban,
 * bell, dashboard counter or contact list shows them and their events reach only a screen that opened the ticket
 * (ticket-access.ts `ticketRooms`); the ticket has no trackings (no dashboard figure). The editor ends the test
 * when its panel closes or starts over (`DELETE /api/flowbuilder/run/:id`), which deletes the simulated customer
 * with everything of it; a test whose editor never said so is swept after `TEST_RUN_IDLE_MINUTES` of silence.
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

/**
 * A user waits on this answer, so a company over its flow budget is told at once (`ERR_TENANT_BUSY`) rather than
 * kept waiting, and a company may have `FLOW_TEST_RUNS_MAX` test runs going at once (`ERR_FLOW_TEST_RUNS_LIMIT`):
 * the 50 looping test runs of one company cannot be started.
 */
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
  const release = await ctx.budgets.flows.take(auth.companyId, 'refuse', 0);
  try {
    return await startHeld(ctx, auth, flow.id, body);
  } finally {
    release();
  }
};

const startHeld = async (
  ctx: TAppContext,
  auth: TAuth,
  flowId: number,
  body: { contactName?: string },
): Promise<TFlowTestRunAnswer> => {
  const max = ctx.config.flows.testRunsMax;
  if ((await activeTestRuns(ctx.db, auth.companyId)) >= max) {
    throw new AppError('ERR_FLOW_TEST_RUNS_LIMIT', `At most ${max} flow test runs at once; end one first`);
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
    isTest: true,
  });
  const { ticket } = await findOrCreateTicketForInbound(ctx, {
    companyId: auth.companyId,
    connectionId: connection.id,
    contactId: contact.id,
    isGroup: false,
    reopenWindowMinutes: 0,
    isTest: true,
  });
  const started = await startFlowRun(ctx, {
    companyId: auth.companyId,
    ticketId: ticket.id,
    flowId,
    test: true,
    budget: 'held',
  });
  if (!started) throw new AppError('ERR_NO_FLOW_FOUND');

  return {
    runId: started.runId,
    flowId,
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

/** how long a test customer outlives its last change when its editor never ended the test (a closed tab) */
export const TEST_RUN_IDLE_MINUTES = 30;

const forget = async (ctx: TAppContext, customer: TTestCustomer) => {
  const files = await mediaOfContact(ctx.db, customer.companyId, customer.contactId);
  await ctx.db.transaction((tx) => deleteTestCustomer(tx, customer));
  for (const name of files) await removeMediaFile(ctx.config, name);
};

/** the editor ends its test: the simulated customer goes, with its tickets, messages, media and the run itself */
export const endTestRun = async (ctx: TAppContext, auth: TAuth, runId: number) => {
  const customer = await testCustomerOfRun(ctx.db, auth.companyId, runId);
  if (!customer) throw new AppError('ERR_NO_FLOW_RUN_FOUND');
  await forget(ctx, customer);
};

/** the test customers nobody ended, silent for `idleMinutes`, forgotten (a periodic job); how many */
export const sweepIdleTestRuns = async (ctx: TAppContext, idleMinutes = TEST_RUN_IDLE_MINUTES) => {
  const idle = await idleTestCustomers(ctx.db, new Date(Date.now() - idleMinutes * 60_000));
  for (const customer of idle) await forget(ctx, customer);

  return idle.length;
};

export const testRunJobs = (ctx: TAppContext): TJobDefinition[] => [
  { name: 'flow-test-runs-sweep', cron: '*/5 * * * *', handler: async () => void (await sweepIdleTestRuns(ctx)) },
];
