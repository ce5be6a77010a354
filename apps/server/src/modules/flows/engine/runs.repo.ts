import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client';
import { queryRows } from '../../../db/statements';
import { flowBuilders } from '../../../db/schema/automation';
import { flowRunSteps, flowRuns } from '../../../db/schema/flow-runs';
import type { TStep } from './walk';

export type TRunRow = typeof flowRuns.$inferSelect;

const ACTIVE = ['running', 'waiting'];

/** the ticket's active run, locked until the transaction ends */
export const lockActiveRun = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select()
      .from(flowRuns)
      .where(and(eq(flowRuns.companyId, companyId), eq(flowRuns.ticketId, ticketId), inArray(flowRuns.status, ACTIVE)))
      .for('update')
  )[0] ?? null;

type TRawRun = {
  id: number;
  company_id: number;
  flow_id: number | null;
  ticket_id: number;
  status: string;
  wait: string | null;
  node_id: string | null;
  variables: Record<string, string> | null;
  retries: number;
  steps: number;
  resume_at: Date | null;
  test: boolean;
  reason: string | null;
  created_at: Date;
  updated_at: Date;
  flow_active: boolean | null;
  flow_updated_at: Date | null;
};

/** the run row and the meta of its flow (null when the flow was deleted), the run locked */
export type TLockedRun = { run: TRunRow; flow: { active: boolean; updatedAt: Date } | null };

const RUN_COLUMNS = `r.id, r.company_id, r.flow_id, r.ticket_id, r.status, r.wait, r.node_id, r.variables, r.retries,
  r.steps, r.resume_at, r.test, r.reason, r.created_at, r.updated_at, f.active as flow_active, f.updated_at as flow_updated_at`;

const lockedRun = (raw: TRawRun | undefined): TLockedRun | null =>
  raw
    ? {
        run: {
          id: raw.id,
          companyId: raw.company_id,
          flowId: raw.flow_id,
          ticketId: raw.ticket_id,
          status: raw.status,
          wait: raw.wait,
          nodeId: raw.node_id,
          variables: raw.variables ?? {},
          retries: raw.retries,
          steps: raw.steps,
          resumeAt: raw.resume_at,
          test: raw.test,
          reason: raw.reason,
          createdAt: raw.created_at,
          updatedAt: raw.updated_at,
        },
        flow:
          raw.flow_updated_at && raw.flow_active !== null
            ? { active: raw.flow_active, updatedAt: raw.flow_updated_at }
            : null,
      }
    : null;

/**
 * the ticket's active run, locked until the transaction ends, with its flow's active flag and save time in
 * the same statement (the flow's document is read only when the parsed one cached is older)
 */
export const lockActiveRunWithFlow = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  lockedRun(
    (
      await queryRows<TRawRun>(
        db,
        `select ${RUN_COLUMNS} from flow_runs r
         left join flow_builders f on f.id = r.flow_id and f.company_id = r.company_id
         where r.company_id = $1 and r.ticket_id = $2 and r.status in ('running', 'waiting')
         for update of r`,
        [companyId, ticketId],
      )
    )[0],
  );

/** one run, locked, with its flow's meta (the interval's resume) */
export const lockRunWithFlow = async (db: TDbOrTx, runId: number) =>
  lockedRun(
    (
      await queryRows<TRawRun>(
        db,
        `select ${RUN_COLUMNS} from flow_runs r
         left join flow_builders f on f.id = r.flow_id and f.company_id = r.company_id
         where r.id = $1
         for update of r`,
        [runId],
      )
    )[0],
  );

export type TStepWrite = {
  run: Pick<TRunRow, 'id' | 'companyId' | 'ticketId'>;
  patch: Pick<TRunRow, 'status' | 'wait' | 'nodeId' | 'variables' | 'retries' | 'steps' | 'resumeAt' | 'reason'>;
  steps: TStep[];
  ticket: { flowWebhook: boolean; lastFlowId: string | null; flowStopped: number | null };
};

/**
 * a step's writes in one statement: the run's new state, its step log rows and the ticket's flow columns
 * (data-modifying CTEs, all applied or none)
 */
export const writeStep = async (db: TDbOrTx, w: TStepWrite) => {
  const { run, patch, steps, ticket } = w;
  await queryRows(
    db,
    `with run as (
       update flow_runs set status = $3, wait = $4, node_id = $5, variables = $6::jsonb, retries = $7, steps = $8,
         resume_at = $9, reason = $10, updated_at = now()
       where id = $2 and company_id = $1
       returning id
     ), steps as (
       insert into flow_run_steps (company_id, run_id, node_id, node_type, status, reason)
       select $1, run.id, s.node_id, s.node_type, s.status, s.reason
       from run, unnest($11::varchar[], $12::varchar[], $13::varchar[], $14::varchar[])
         with ordinality as s(node_id, node_type, status, reason, n)
       order by s.n
       returning id
     )
     update tickets set flow_webhook = $15, last_flow_id = $16, flow_stopped = $17, updated_at = now()
     where company_id = $1 and id = $18`,
    [
      run.companyId,
      run.id,
      patch.status,
      patch.wait,
      patch.nodeId,
      JSON.stringify(patch.variables ?? {}),
      patch.retries,
      patch.steps,
      patch.resumeAt,
      patch.reason,
      steps.map((s) => s.nodeId),
      steps.map((s) => s.nodeType),
      steps.map((s) => s.status),
      steps.map((s) => s.reason ?? null),
      ticket.flowWebhook,
      ticket.lastFlowId,
      ticket.flowStopped,
      run.ticketId,
    ],
  );
};

/** the ticket of a run (read without a lock: the interval's resume then locks the run under the ticket's queue) */
/** the company's test runs under way (running or waiting) */
export const activeTestRuns = async (db: TDbOrTx, companyId: number) =>
  Number(
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(flowRuns)
        .where(and(eq(flowRuns.companyId, companyId), eq(flowRuns.test, true), inArray(flowRuns.status, ACTIVE)))
    )[0]?.n ?? 0,
  );

/** the company and ticket of a run (by id alone: a timer or the ticker knows only the id) */
export const ownerOfRun = async (db: TDbOrTx, runId: number) =>
  (
    await db
      .select({ companyId: flowRuns.companyId, ticketId: flowRuns.ticketId })
      .from(flowRuns)
      .where(eq(flowRuns.id, runId))
  )[0] ?? null;

/** whether the ticket has a run under way (the fast path's question) */
export const hasActiveRun = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select({ id: flowRuns.id })
      .from(flowRuns)
      .where(and(eq(flowRuns.companyId, companyId), eq(flowRuns.ticketId, ticketId), inArray(flowRuns.status, ACTIVE)))
      .limit(1)
  ).length > 0;

export const insertRun = async (db: TDbOrTx, row: typeof flowRuns.$inferInsert) =>
  (await db.insert(flowRuns).values(row).returning())[0]!;

export const updateRun = async (db: TDbOrTx, runId: number, patch: Partial<typeof flowRuns.$inferInsert>) =>
  db
    .update(flowRuns)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(flowRuns.id, runId));

/** ends every active run of a ticket (an attendant accepted it, the ticket closed) */
export const endActiveRuns = async (db: TDbOrTx, companyId: number, ticketId: number, reason: string) =>
  db
    .update(flowRuns)
    .set({ status: 'done', wait: null, reason, resumeAt: null, updatedAt: new Date() })
    .where(and(eq(flowRuns.companyId, companyId), eq(flowRuns.ticketId, ticketId), inArray(flowRuns.status, ACTIVE)))
    .returning({ id: flowRuns.id, flowId: flowRuns.flowId });

/** intervals due: their ids, oldest first */
export const dueRuns = async (db: TDbOrTx, now: Date, limit = 100) =>
  db
    .select({ id: flowRuns.id, companyId: flowRuns.companyId, ticketId: flowRuns.ticketId })
    .from(flowRuns)
    .where(and(eq(flowRuns.wait, 'interval'), eq(flowRuns.status, 'waiting'), lte(flowRuns.resumeAt, now)))
    .orderBy(asc(flowRuns.resumeAt))
    .limit(limit);

export const flowForRun = async (db: TDbOrTx, companyId: number, flowId: number) =>
  (
    await db
      .select({
        id: flowBuilders.id,
        active: flowBuilders.active,
        flow: flowBuilders.flow,
        updatedAt: flowBuilders.updatedAt,
      })
      .from(flowBuilders)
      .where(and(eq(flowBuilders.companyId, companyId), eq(flowBuilders.id, flowId)))
  )[0] ?? null;

export const runWithSteps = async (db: TDbOrTx, companyId: number, runId: number) => {
  const run = (
    await db
      .select()
      .from(flowRuns)
      .where(and(eq(flowRuns.companyId, companyId), eq(flowRuns.id, runId)))
  )[0];
  if (!run) return null;
  const steps = await db
    .select()
    .from(flowRunSteps)
    .where(and(eq(flowRunSteps.companyId, companyId), eq(flowRunSteps.runId, runId)))
    .orderBy(asc(flowRunSteps.id));

  return { run, steps };
};

/** `count(*)` of steps per run (the benchmark's check) */
export const stepCounts = async (db: TDbOrTx, runIds: number[]) =>
  runIds.length === 0
    ? []
    : db
        .select({ runId: flowRunSteps.runId, count: sql<number>`count(*)::int` })
        .from(flowRunSteps)
        .where(inArray(flowRunSteps.runId, runIds))
        .groupBy(flowRunSteps.runId);
