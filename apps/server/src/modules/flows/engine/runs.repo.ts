import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client';
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

export const lockRun = async (db: TDbOrTx, runId: number) =>
  (await db.select().from(flowRuns).where(eq(flowRuns.id, runId)).for('update'))[0] ?? null;

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

export const insertSteps = async (db: TDbOrTx, companyId: number, runId: number, steps: TStep[]) => {
  if (steps.length === 0) return;
  await db.insert(flowRunSteps).values(
    steps.map((s) => ({
      companyId,
      runId,
      nodeId: s.nodeId,
      nodeType: s.nodeType,
      status: s.status,
      reason: s.reason ?? null,
    })),
  );
};

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
