import type { TDbOrTx } from '../../db/client';
import type { TAppContext } from '../../lib/context';
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
 * The dashboard's fold on this node, every `everyMs` (one pass at a time): keeps the unfolded deltas, which every
 * read adds to the rollup, few. Every node may run it (concurrent folds take disjoint deltas); reads are exact
 * without it, only slower as deltas pile up.
 */
export const startDashboardFold = (ctx: TAppContext, everyMs = 1_000) => {
  let pass: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    pass ??= foldAllDeltas(ctx.db)
      .catch((err) => ctx.log.warn({ err }, 'dashboard fold failed'))
      .finally(() => {
        pass = undefined;
      });
  }, everyMs);
  timer.unref();

  return () => clearInterval(timer);
};
