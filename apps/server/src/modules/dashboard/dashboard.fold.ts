import type { TDbOrTx } from '../../db/client';
import type { TAppContext } from '../../lib/context';
import { createDueRunner } from '../../lib/due-runner';
import { foldDeltas } from './dashboard.repo';

/** folds every delta there is, `batch` at a time; answers how many it folded */
export const foldAllDeltas = async (db: TDbOrTx, batch = 5_000) => {
  let total = 0;
  for (;;) {
    const folded = await foldDeltas(db, batch);
    total += folded;
    if (folded < batch) return total;
  }
};

/**
 * The dashboard's fold on this node, every `everyMs` (one pass at a time, through the due-runner loop with nothing
 * ever "due"): keeps the unfolded deltas, which every read adds to the rollup, few. Every node may run it
 * (concurrent folds take disjoint deltas); reads are exact without it, only slower as deltas pile up.
 */
export const createDashboardFold = (ctx: TAppContext, everyMs = 1_000) =>
  createDueRunner({
    pass: () => foldAllDeltas(ctx.db),
    nextDueAt: async () => null,
    now: () => new Date(),
    pollMs: everyMs,
    log: ctx.log,
    name: 'dashboard fold',
  });
