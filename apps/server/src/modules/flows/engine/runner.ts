import { events, rooms, type TFlowRunStepEvent, ZFlowDocument } from '@zelo/shared';
import type { TDbOrTx } from '../../../db/client';
import { patchTicket, queueForBot, queuesOfConnection, ticketById } from '../../../inbound/inbound.repo';
import { createKeyedQueue } from '../../../inbound/keyed-queue';
import type { TAppContext } from '../../../lib/context';
import type { TBudgetMode } from '../../../lib/tenant-budget';
import { announceTicket, type TTicketPlace } from '../../tickets/ticket-announcer';
import { buildGraph, type TGraph } from './graph';
import { performActions } from './perform';
import {
  dueRuns,
  ownerOfRun,
  flowForRun,
  insertRun,
  lockActiveRun,
  lockActiveRunWithFlow,
  lockRunWithFlow,
  type TLockedRun,
  type TRunRow,
  updateRun,
  writeStep,
} from './runs.repo';
import { type TAction, type THandover, type TWalkInput, type TWalkResult, type TWalkState, walk } from './walk';

/**
 * Runs flows on tickets. Every event (a start, a customer's answer, an interval due) is decided in one
 * transaction under the run's row lock (and the unique index of one active run per ticket), so a burst of
 * messages never executes a step twice, on one node or several; the messages go out after the commit, in
 * order, one ticket at a time in this process. The state lives in `flow_runs`, so a restart resumes: a
 * waiting menu or question on the next message, an interval by `resumeDueRuns` (a timer here, the ticker
 * on every node).
 *
 * Every event runs inside its company's flow budget (lib/tenant-budget.ts, issue 20 item 9): it waits for a slot
 * while the company has used its share (a deferred step is late, never lost), and pays afterwards for the steps
 * it ran and the messages it sends. A run executes at most `FLOW_RUN_STEP_CAP` steps in its life, so a loop
 * through intervals ends (`run-step-cap`).
 */

const tickets = createKeyedQueue();

/** parsed flow documents by flow id and save time */
const graphs = new Map<number, { at: number; graph: TGraph }>();

const graphOf = (flow: { id: number; flow: unknown; updatedAt: Date }): TGraph => {
  const at = flow.updatedAt.getTime();
  const cached = graphs.get(flow.id);
  if (cached && cached.at === at) return cached.graph;
  const parsed = ZFlowDocument.safeParse(flow.flow ?? { nodes: [], connections: [] });
  const graph = buildGraph(parsed.success ? parsed.data : null);
  if (graphs.size > 1000) graphs.clear();
  graphs.set(flow.id, { at, graph });

  return graph;
};

/** the graph of a locked run's flow: the cached parse when the flow was not saved since, else read and parsed */
const graphOfLocked = async (tx: TDbOrTx, locked: TLockedRun): Promise<TGraph | null> => {
  const { run, flow } = locked;
  if (!run.flowId || !flow) return null;
  const cached = graphs.get(run.flowId);
  if (cached && cached.at === flow.updatedAt.getTime()) return cached.graph;
  const row = await flowForRun(tx, run.companyId, run.flowId);

  return row ? graphOf(row) : null;
};

type TOutcome = {
  run: TRunRow;
  result: TWalkResult;
  previous?: TTicketPlace;
  /** the ticket went to the connection's queues with several to choose from: the classic chain offers them */
  offerQueues: boolean;
};

const stateOf = (run: TRunRow): TWalkState => ({
  status: run.status as TWalkState['status'],
  wait: (run.wait as TWalkState['wait']) ?? null,
  nodeId: run.nodeId,
  variables: run.variables ?? {},
  retries: run.retries,
});

/** the walk's options; the step cap is what is left of the run's own cap when that is less */
const walkOptions = (ctx: TAppContext, runSteps: number) => ({
  rng: Math.random,
  typingMs: ctx.config.flows.typingMs,
  gapMs: ctx.config.flows.gapMs,
  stepCap: Math.max(0, Math.min(ctx.config.flows.stepCap, ctx.config.flows.runStepCap - runSteps)),
});

/** walks, naming the run's own cap when that is what ended it */
const walkRun = (ctx: TAppContext, graph: TGraph, state: TWalkState, input: TWalkInput, runSteps: number) => {
  const result = walk(graph, state, input, walkOptions(ctx, runSteps));
  if (result.reason === 'step-cap' && ctx.config.flows.runStepCap - runSteps < ctx.config.flows.stepCap) {
    result.reason = 'run-step-cap';
    const last = result.steps.at(-1);
    if (last) last.reason = 'run-step-cap';
  }

  return result;
};

/**
 * an event's decision inside the company's flow budget: a slot for its transaction, waited for (or refused),
 * then paid for by the steps it ran and the messages it sends (`held`: the caller holds the slot already)
 */
const budgeted = async <T>(
  ctx: TAppContext,
  companyId: number,
  mode: TBudgetMode | 'held',
  decide: () => Promise<T>,
): Promise<T> => {
  if (mode === 'held') return decide();
  const release = await ctx.budgets.flows.take(companyId, mode, 0);
  try {
    return await decide();
  } finally {
    release();
  }
};

const SENDS = new Set<TAction['type']>(['text', 'media', 'ai', 'typebot']);
const pay = (ctx: TAppContext, outcome: TOutcome) => {
  const { steps, actions } = outcome.result;
  ctx.budgets.flows.charge(outcome.run.companyId, steps.length + actions.filter((a) => SENDS.has(a.type)).length);
};

/** hands the ticket over (a ticket node's queue, or the connection's queues after the menu retries) */
const applyHandover = async (
  tx: TDbOrTx,
  companyId: number,
  ticketId: number,
  handover: THandover,
): Promise<{ previous?: TTicketPlace; offerQueues: boolean; reason?: string }> => {
  const ticket = await ticketById(tx, companyId, ticketId);
  if (!ticket) return { offerQueues: false };
  const previous = { status: ticket.status, queueId: ticket.queueId, userId: ticket.userId };
  const base = { status: 'pending', userId: null, chatbot: false, queueOptionId: null };
  if (handover.kind === 'queue') {
    const queue = await queueForBot(tx, companyId, handover.queueId);
    if (queue) {
      await patchTicket(tx, companyId, ticketId, { ...base, queueId: queue.id });
      return { previous, offerQueues: false };
    }
  }
  const queues = await queuesOfConnection(tx, companyId, ticket.whatsappId ?? 0);
  const only = queues.length === 1 ? queues[0]! : null;
  await patchTicket(tx, companyId, ticketId, { ...base, queueId: only?.id ?? null });

  return {
    previous,
    offerQueues: queues.length > 1,
    reason: handover.kind === 'queue' ? 'queue-deleted' : undefined,
  };
};

/** writes the walk's outcome: the run's state, its steps, the ticket's flow columns, a hand-over */
const commit = async (tx: TDbOrTx, run: TRunRow, result: TWalkResult, now: Date): Promise<TOutcome> => {
  const { state } = result;
  let previous: TTicketPlace | undefined;
  let offerQueues = false;
  if (result.handover) {
    const applied = await applyHandover(tx, run.companyId, run.ticketId, result.handover);
    previous = applied.previous;
    offerQueues = applied.offerQueues;
    if (applied.reason) {
      state.status = 'failed';
      result.reason = applied.reason;
      const last = result.steps.at(-1);
      if (last) Object.assign(last, { status: 'failed', reason: applied.reason });
    }
  }
  const resumeAt = result.resumeInSeconds ? new Date(now.getTime() + result.resumeInSeconds * 1000) : null;
  const patch = {
    status: state.status,
    wait: state.wait,
    nodeId: state.nodeId,
    variables: state.variables,
    retries: state.retries,
    steps: run.steps + result.steps.length,
    resumeAt,
    reason: result.reason ?? null,
  };
  const active = state.status === 'running' || state.status === 'waiting';
  await writeStep(tx, {
    run,
    patch,
    steps: result.steps,
    ticket: { flowWebhook: active, lastFlowId: state.nodeId, flowStopped: run.flowId },
  });

  return { run: { ...run, ...patch }, result, previous, offerQueues };
};

const emitSteps = (ctx: TAppContext, outcome: TOutcome) => {
  const { run, result } = outcome;
  const at = new Date().toISOString();
  for (const step of result.steps) {
    const payload: TFlowRunStepEvent = {
      runId: run.id,
      flowId: run.flowId ?? 0,
      ticketId: run.ticketId,
      nodeId: step.nodeId,
      nodeType: step.nodeType,
      status: step.status,
      variables: result.state.variables,
      ...(step.reason ? { reason: step.reason } : {}),
      at,
    };
    ctx.realtime.to(rooms.admins(run.companyId), events.flowRun(run.companyId), payload);
  }
};

const dueTimers = new Set<NodeJS.Timeout>();

/** after the commit: events, the interval's timer, the sends, the ticket's announcement */
const afterCommit = async (ctx: TAppContext, outcome: TOutcome, extra: { messageId?: number; mediaType?: string }) => {
  emitSteps(ctx, outcome);
  const { run, result } = outcome;
  if (result.resumeInSeconds) {
    const timer = setTimeout(() => {
      dueTimers.delete(timer);
      void resumeDueRun(ctx, run.id).catch((err) => ctx.log.error({ err, runId: run.id }, 'flow interval failed'));
    }, result.resumeInSeconds * 1000);
    timer.unref();
    dueTimers.add(timer);
  }
  await performActions(ctx, run, result.actions as TAction[], result.state.variables, extra);
  if (outcome.previous) await announceTicket(ctx, run.companyId, run.ticketId, outcome.previous);
};

export type TStartInput = {
  companyId: number;
  ticketId: number;
  flowId: number;
  /** the message that started it (an OpenAI or Typebot node answers it) */
  body?: string;
  /** a test run: runs an inactive flow too */
  test?: boolean;
  /** over the company's flow budget: wait (the default, background work), refuse, or the caller holds a slot */
  budget?: TBudgetMode | 'held';
  messageId?: number;
  mediaType?: string;
};

export type TStartAnswer = { runId: number; status: string; offerQueues: boolean } | null;

/** starts a flow on a ticket (ending a run under way there); null when the flow is missing or inactive */
export const startFlowRun = (ctx: TAppContext, input: TStartInput, now = new Date()): Promise<TStartAnswer> =>
  tickets.run(String(input.ticketId), async () => {
    const outcome = await budgeted(ctx, input.companyId, input.budget ?? 'wait', () =>
      ctx.db.transaction(async (tx) => {
        const flow = await flowForRun(tx, input.companyId, input.flowId);
        if (!flow || (!flow.active && !input.test)) return null;
        const current = await lockActiveRun(tx, input.companyId, input.ticketId);
        if (current)
          await updateRun(tx, current.id, { status: 'done', wait: null, resumeAt: null, reason: 'replaced' });
        const run = await insertRun(tx, {
          companyId: input.companyId,
          flowId: flow.id,
          ticketId: input.ticketId,
          status: 'running',
          test: !!input.test,
        });
        const state: TWalkState = { status: 'running', wait: null, nodeId: null, variables: {}, retries: 0 };
        const result = walkRun(ctx, graphOf(flow), state, { kind: 'start', body: input.body }, 0);

        return commit(tx, run, result, now);
      }),
    );
    if (!outcome) return null;
    pay(ctx, outcome);
    await afterCommit(ctx, outcome, input);

    return { runId: outcome.run.id, status: outcome.run.status, offerQueues: outcome.offerQueues };
  });

export type TResumeInput = {
  companyId: number;
  ticketId: number;
  body: string;
  messageId?: number;
  mediaType?: string;
};

/**
 * a customer's message on a ticket whose run waits: `handled` when the run took it (an answer, or a message
 * during an interval), `offer-queues` when the run ended handing the ticket to the connection's queues,
 * `none` when no run waits
 */
export const resumeFlowRun = (
  ctx: TAppContext,
  input: TResumeInput,
  now = new Date(),
): Promise<'handled' | 'offer-queues' | 'none'> =>
  tickets.run(String(input.ticketId), async () => {
    const outcome = await budgeted(ctx, input.companyId, 'wait', () =>
      ctx.db.transaction(async (tx) => {
        const locked = await lockActiveRunWithFlow(tx, input.companyId, input.ticketId);
        if (!locked) return 'none' as const;
        const { run } = locked;
        if (run.status !== 'waiting' || run.wait === 'interval') return 'held' as const;
        const graph = await graphOfLocked(tx, locked);
        if (!graph) {
          await updateRun(tx, run.id, { status: 'failed', wait: null, reason: 'flow-deleted' });
          await patchTicket(tx, run.companyId, run.ticketId, { flowWebhook: false });
          return 'none' as const;
        }
        if (run.wait === 'bot') {
          // an OpenAI / Typebot node holds the ticket only while it has no queue (the AI's hand-over gives it one)
          const ticket = await ticketById(tx, run.companyId, run.ticketId);
          if (!ticket || ticket.queueId) {
            await updateRun(tx, run.id, { status: 'done', wait: null, reason: 'handover' });
            await patchTicket(tx, run.companyId, run.ticketId, { flowWebhook: false });
            return 'none' as const;
          }
        }
        const input2: TWalkInput = { kind: 'answer', body: input.body };
        const result = walkRun(ctx, graph, stateOf(run), input2, run.steps);

        return commit(tx, run, result, now);
      }),
    );
    if (outcome === 'none') return 'none';
    if (outcome === 'held') return 'handled';
    pay(ctx, outcome);
    await afterCommit(ctx, outcome, input);

    return outcome.offerQueues ? 'offer-queues' : 'handled';
  });

/** the due runs this process has taken up and not finished (a deferred one is not queued twice) */
const dueTaken = new Set<number>();

/**
 * an interval's due time came: the run goes on (once, whichever node or timer claims it first), in its turn of
 * the company's budget
 */
export const resumeDueRun = async (ctx: TAppContext, runId: number, now = new Date()) => {
  if (dueTaken.has(runId)) return false;
  dueTaken.add(runId);
  try {
    const owner = await ownerOfRun(ctx.db, runId);
    if (!owner) return false;
    return await resumeDue(ctx, runId, owner, now);
  } finally {
    dueTaken.delete(runId);
  }
};

const resumeDue = (ctx: TAppContext, runId: number, owner: { companyId: number; ticketId: number }, now: Date) =>
  tickets.run(String(owner.ticketId), async () => {
    const outcome = await budgeted(ctx, owner.companyId, 'wait', () =>
      ctx.db.transaction(async (tx) => {
        const locked = await lockRunWithFlow(tx, runId);
        const run = locked?.run;
        if (!locked || !run || run.status !== 'waiting' || run.wait !== 'interval') return null;
        if (run.resumeAt && run.resumeAt.getTime() > now.getTime() + 50) return null;
        const ticket = await ticketById(tx, run.companyId, run.ticketId);
        const graph = await graphOfLocked(tx, locked);
        if (!ticket || ticket.userId || ticket.status === 'closed' || !graph) {
          const reason = !graph ? 'flow-deleted' : 'accepted';
          await updateRun(tx, run.id, { status: 'done', wait: null, resumeAt: null, reason });
          await patchTicket(tx, run.companyId, run.ticketId, { flowWebhook: false });
          return null;
        }
        const result = walkRun(ctx, graph, stateOf(run), { kind: 'due' }, run.steps);

        return commit(tx, run, result, now);
      }),
    );
    if (!outcome) return false;
    pay(ctx, outcome);
    await afterCommit(ctx, outcome, {});

    return true;
  });

/**
 * every interval due (after a restart, or on another node): the ticker's work. All at once, each in its
 * company's turn, so a company whose runs wait for its budget holds up no other company's.
 */
export const resumeDueRuns = async (ctx: TAppContext, now = new Date()) => {
  const due = await dueRuns(ctx.db, now);
  const resumed = await Promise.all(due.map((d) => resumeDueRun(ctx, d.id, now).catch(() => false)));

  return resumed.filter(Boolean).length;
};

/** main.ts: checks for due intervals every few seconds on each node that runs jobs */
export const startFlowTicker = (ctx: TAppContext, everyMs = 2_000) => {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // the tick only finds and starts the due runs: one waiting for its company's budget holds up no later tick
    void dueRuns(ctx.db, new Date())
      .then((due) => {
        for (const d of due) {
          if (dueTaken.has(d.id)) continue;
          void resumeDueRun(ctx, d.id).catch((err) => ctx.log.error({ err, runId: d.id }, 'flow interval failed'));
        }
      })
      .catch((err) => ctx.log.error({ err }, 'flow ticker failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();

  return () => {
    clearInterval(timer);
    for (const t of dueTimers) clearTimeout(t);
    dueTimers.clear();
  };
};
