import type { TDbOrTx } from '../../db/client';
import { businessSeconds, calendarFor, type TBusinessCalendar } from '../../lib/business-hours';
import type { TAppContext } from '../../lib/context';
import { createDueRunner } from '../../lib/due-runner';
import {
  backfillBatch,
  claimDueCycles,
  hoursOf,
  type TCycleFigures,
  type TDueCycle,
  writeCycleFigures,
} from './metrics.repo';

/**
 * The figures of an attendance cycle, from the instants recorded on it (ARCHITECTURE "Attendance metrics"):
 * - first response: from when the customer waited for a person — the last bot/flow/AI message before a person
 *   acted, else the cycle's start — to the first agent reply;
 * - resolution: from the cycle's start (a new ticket's first message, or its reopening) to its resolution (the
 *   rating request when one was sent, else the finish);
 * - bot time: when a bot spoke, from the cycle's start to the first person's action (accept or reply), or to the
 *   resolution when no person acted (a bot-resolved conversation); null when no bot spoke;
 * - replies: the agent messages of a resolved cycle.
 * Every duration in wall-clock seconds and in business seconds over the calendar the settings give the cycle's
 * queue (lib/business-hours `calendarFor`), as the calendar is when the figure is computed.
 */

const seconds = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));

export const cycleFigures = (cycle: TDueCycle, calendar: TBusinessCalendar): TCycleFigures => {
  const start = new Date(cycle.created_at);
  const firstReply = cycle.first_reply_at && new Date(cycle.first_reply_at);
  const resolved = cycle.resolved_at && new Date(cycle.resolved_at);
  const botUntil = cycle.bot_until && new Date(cycle.bot_until);
  const human = cycle.human_at ? new Date(cycle.human_at) : firstReply;
  const waitFrom = botUntil && botUntil > start ? botUntil : start;
  const botEnd = human ?? resolved;
  const span = (from: Date, to: Date | null) =>
    to && to >= from ? { s: seconds(from, to), bs: businessSeconds(calendar, from, to) } : { s: null, bs: null };
  const first = span(waitFrom, firstReply);
  const resolution = span(start, resolved);
  const bot = botUntil ? span(start, botEnd) : { s: null, bs: null };

  return {
    id: cycle.id,
    botUntil,
    replies: cycle.replies,
    firstResponseS: first.s,
    firstResponseBs: first.bs,
    // a resolution is always measured (0 when the clocks disagree), so the cycle leaves the due list
    resolutionS: resolved ? (resolution.s ?? 0) : null,
    resolutionBs: resolved ? (resolution.bs ?? 0) : null,
    botS: bot.s,
    botBs: bot.bs,
  };
};

/** the calendars of a batch's cycles, read once per batch (so a settings change applies from the next batch) */
const calendarsFor = async (db: TDbOrTx, cycles: TDueCycle[]) => {
  const companyIds = [...new Set(cycles.map((c) => c.company_id))];
  const queueIds = [...new Set(cycles.map((c) => c.queue_id).filter((q): q is number => q !== null))];
  const { companies, queues } = await hoursOf(db, companyIds, queueIds);
  const companyOf = new Map(companies.map((c) => [c.id, c]));
  const queueHours = new Map(queues.map((q) => [q.id, q.schedules]));
  const kept = new Map<string, TBusinessCalendar>();

  return (cycle: TDueCycle) => {
    const key = `${cycle.company_id}:${cycle.queue_id ?? ''}`;
    let calendar = kept.get(key);
    if (!calendar) {
      const company = companyOf.get(cycle.company_id);
      calendar = calendarFor({
        scheduleType: company?.scheduleType,
        timeZone: company?.timezone,
        companySchedules: company?.schedules,
        queueSchedules: cycle.queue_id !== null ? queueHours.get(cycle.queue_id) : null,
      });
      kept.set(key, calendar);
    }

    return calendar;
  };
};

/** computes one batch of due cycles in one transaction; answers how many */
export const computeDueBatch = async (db: TDbOrTx, limit: number) =>
  db.transaction(async (tx) => {
    const cycles = await claimDueCycles(tx, limit);
    if (cycles.length === 0) return 0;
    const calendarOf = await calendarsFor(tx, cycles);
    await writeCycleFigures(
      tx,
      cycles.map((c) => cycleFigures(c, calendarOf(c))),
    );

    return cycles.length;
  });

export type TMetricsPass = { backfilled: number; computed: number };

/**
 * One bounded pass: backfill batches, then due figures, until nothing is left or `budgetMs` is spent (a big
 * backfill goes on in the next pass, so stopping the server never waits for it). Batches are small transactions
 * with SKIP LOCKED claims: the service keeps running, and several nodes share the work.
 */
export const runMetricsPass = async (
  ctx: Pick<TAppContext, 'db'>,
  opts: { batch?: number; budgetMs?: number } = {},
): Promise<TMetricsPass> => {
  const batch = opts.batch ?? 500;
  const deadline = Date.now() + (opts.budgetMs ?? 2_000);
  const done: TMetricsPass = { backfilled: 0, computed: 0 };
  for (;;) {
    const n = await backfillBatch(ctx.db, batch);
    done.backfilled += n;
    const m = await computeDueBatch(ctx.db, batch);
    done.computed += m;
    if ((n < batch && m < batch) || Date.now() >= deadline) return done;
  }
};

/** computes everything there is (tests, the benchmark): passes until one finds nothing */
export const runMetricsUntilDone = async (ctx: Pick<TAppContext, 'db'>, batch = 500) => {
  const total: TMetricsPass = { backfilled: 0, computed: 0 };
  for (;;) {
    const pass = await runMetricsPass(ctx, { batch, budgetMs: 60_000 });
    total.backfilled += pass.backfilled;
    total.computed += pass.computed;
    if (pass.backfilled === 0 && pass.computed === 0) return total;
  }
};

/**
 * The metrics runner of a node that runs jobs: a pass every `everyMs` (the due-runner loop with nothing "due";
 * the figures of a reply or a resolution are there within about a second). PGlite's one connection gets small
 * batches, so a backfill never holds it for long.
 */
export const createMetricsRunner = (ctx: TAppContext, everyMs = 1_000) => {
  const batch = ctx.config.databaseUrl ? 500 : 100;
  let announced = false;

  return createDueRunner({
    pass: async () => {
      const pass = await runMetricsPass(ctx, { batch });
      if (pass.backfilled > 0) {
        announced = true;
        ctx.log.info({ cycles: pass.backfilled }, 'attendance metrics backfilled');
      } else if (announced) {
        announced = false;
        ctx.log.info('attendance metrics backfill finished');
      }
    },
    nextDueAt: async () => null,
    now: () => new Date(),
    pollMs: everyMs,
    log: ctx.log,
    name: 'attendance metrics',
  });
};
