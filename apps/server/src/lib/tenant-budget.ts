import { AppError } from '../http/errors';

/**
 * A fair share of one kind of background work (flow steps, AI calls, integration calls) per company, so that
 * no tenant can starve the others (issue 20 item 9). Each company has a token bucket (`ratePerSecond`, bursts
 * of `burst`) and a number of tasks it may run at once (`concurrency`); the server has a total (`serverConcurrency`).
 *
 * A task starts when its company holds at least one token and has a free slot, and pays its cost then.
 * - `take(companyId, 'wait')` (background work: a flow step, a bot's turn) waits its turn and is never dropped;
 *   the companies waiting are served in turns (round robin), so a company with a long queue delays only itself.
 * - `take(companyId, 'refuse')` (a request a user is waiting on: a test run) is granted at once or refused with
 *   `ERR_TENANT_BUSY` (429).
 * - `charge(companyId, n)` adds the cost learnt after the fact (a step's sends): the bucket may go into debt,
 *   which the company's next tasks wait out.
 *
 * Counted in this process, like the rate limits: each node of a cluster gives each company its own share.
 */

export type TBudgetLimits = {
  /** tokens a company earns a second (a task costs one to start) */
  ratePerSecond: number;
  /** most tokens a company holds (its burst) */
  burst: number;
  /** tasks of one company at once */
  concurrency: number;
  /** tasks of every company at once on this server */
  serverConcurrency: number;
};

export type TBudgetMode = 'wait' | 'refuse';
/** ends the task's hold on its slot (idempotent) */
export type TRelease = () => void;

type TWaiter = { cost: number; grant: (release: TRelease) => void };
type TLane = { tokens: number; refilledAt: number; active: number; waiting: TWaiter[] };

export type TTenantBudget = ReturnType<typeof createTenantBudget>;

export const createTenantBudget = (name: string, limits: TBudgetLimits, now: () => number = Date.now) => {
  const lanes = new Map<number, TLane>();
  /** the companies with tasks waiting, in their turn order */
  const turns: number[] = [];
  let serverActive = 0;
  let timer: NodeJS.Timeout | undefined;

  const laneOf = (companyId: number) => {
    let lane = lanes.get(companyId);
    if (!lane) {
      lane = { tokens: limits.burst, refilledAt: now(), active: 0, waiting: [] };
      lanes.set(companyId, lane);
    }
    const at = now();
    lane.tokens = Math.min(limits.burst, lane.tokens + ((at - lane.refilledAt) / 1000) * limits.ratePerSecond);
    lane.refilledAt = at;

    return lane;
  };
  /** an idle lane with a full bucket holds nothing worth keeping */
  const forgetIdle = (companyId: number, lane: TLane) => {
    if (lane.active === 0 && lane.waiting.length === 0 && lane.tokens >= limits.burst) lanes.delete(companyId);
  };
  const mayStart = (lane: TLane) =>
    serverActive < limits.serverConcurrency && lane.active < limits.concurrency && lane.tokens >= 1;

  const start = (companyId: number, lane: TLane, cost: number): TRelease => {
    lane.tokens -= cost;
    lane.active += 1;
    serverActive += 1;
    let released = false;

    return () => {
      if (released) return;
      released = true;
      lane.active -= 1;
      serverActive -= 1;
      pump();
      forgetIdle(companyId, laneOf(companyId));
    };
  };

  /** hands free slots to the waiting companies in turns; sleeps until the next token when only tokens lack */
  const pump = () => {
    let granted = true;
    while (granted && turns.length > 0 && serverActive < limits.serverConcurrency) {
      granted = false;
      for (let i = 0; i < turns.length && serverActive < limits.serverConcurrency; ) {
        const companyId = turns[i]!;
        const lane = laneOf(companyId);
        if (!mayStart(lane)) {
          i += 1;
          continue;
        }
        const waiter = lane.waiting.shift()!;
        turns.splice(i, 1);
        // served: to the back of the turns when more of its tasks wait
        if (lane.waiting.length > 0) turns.push(companyId);
        waiter.grant(start(companyId, lane, waiter.cost));
        granted = true;
      }
    }
    scheduleRefill();
  };

  const scheduleRefill = () => {
    if (timer || turns.length === 0 || serverActive >= limits.serverConcurrency) return;
    // the soonest a waiting company without tokens (and with a free slot) earns one
    let soonest = Number.POSITIVE_INFINITY;
    for (const companyId of turns) {
      const lane = laneOf(companyId);
      if (lane.active >= limits.concurrency || lane.tokens >= 1) continue;
      soonest = Math.min(soonest, ((1 - lane.tokens) / limits.ratePerSecond) * 1000);
    }
    if (!Number.isFinite(soonest)) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        pump();
      },
      Math.max(1, Math.ceil(soonest)),
    );
    timer.unref();
  };

  /**
   * a slot for one task, once the company has a token and a free slot; `cost` tokens are paid on start (0: the
   * task pays later by `charge`, for what it turned out to do)
   */
  const take = (companyId: number, mode: TBudgetMode, cost = 1): Promise<TRelease> => {
    const lane = laneOf(companyId);
    if (lane.waiting.length === 0 && mayStart(lane)) return Promise.resolve(start(companyId, lane, cost));
    if (mode === 'refuse') {
      return Promise.reject(
        new AppError('ERR_TENANT_BUSY', `Too much ${name} work for this company right now; try again shortly`),
      );
    }

    return new Promise<TRelease>((grant) => {
      lane.waiting.push({ cost, grant });
      if (!turns.includes(companyId)) turns.push(companyId);
      scheduleRefill();
    });
  };

  return {
    take,
    /** runs `work` inside a slot of the company's budget */
    run: async <T>(companyId: number, mode: TBudgetMode, work: () => Promise<T>, cost = 1): Promise<T> => {
      const release = await take(companyId, mode, cost);
      try {
        return await work();
      } finally {
        release();
      }
    },
    charge: (companyId: number, tokens: number) => {
      if (tokens <= 0) return;
      laneOf(companyId).tokens -= tokens;
    },
    /** what the budget holds now (tests, diagnostics) */
    state: (companyId: number) => {
      const lane = laneOf(companyId);

      return { active: lane.active, waiting: lane.waiting.length, tokens: lane.tokens, serverActive };
    },
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
};

/** the budgets of a server, one per kind of work */
export type TTenantBudgets = { flows: TTenantBudget; ai: TTenantBudget; integrations: TTenantBudget };

export const createTenantBudgets = (limits: {
  flows: TBudgetLimits;
  ai: TBudgetLimits;
  integrations: TBudgetLimits;
}): TTenantBudgets => ({
  flows: createTenantBudget('flow', limits.flows),
  ai: createTenantBudget('AI', limits.ai),
  integrations: createTenantBudget('integration', limits.integrations),
});
