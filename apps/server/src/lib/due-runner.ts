import type { Logger } from 'pino';

/**
 * The loop of a sender of due rows (scheduled messages, campaign recipients): one timer armed for the earliest due
 * time this node knows of, re-armed by `wake()` after a local change and by a short poll for changes made on other
 * nodes, so a row leaves on its millisecond when this node knows of it and within one poll otherwise. One pass runs
 * at a time; a wake or a due timer during a pass runs another right after it. The pass claims its rows atomically
 * (the nodes' runners never send one row twice); this only decides when to look.
 */
export type TDueRunnerOptions = {
  /** claims and sends what is due; runs until nothing is */
  pass: () => Promise<unknown>;
  /** the earliest time something becomes due, null for nothing */
  nextDueAt: () => Promise<Date | null>;
  now: () => Date;
  pollMs: number;
  log: Pick<Logger, 'error'>;
  name: string;
};

export type TDueRunner = {
  start: () => void;
  stop: () => Promise<void>;
  /** re-arms the timer (something became due or changed its time) */
  wake: () => void;
};

export const createDueRunner = (opts: TDueRunnerOptions): TDueRunner => {
  let timer: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;
  let stopped = true;

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = opts
      .pass()
      .catch((err) => opts.log.error({ err }, `${opts.name} pass failed`))
      .then(arm)
      .catch((err) => opts.log.error({ err }, `${opts.name} timer not armed`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };

  /** the timer for the earliest due row (at most one poll away: the poll re-arms it anyway) */
  async function arm() {
    if (stopped) return;
    const at = await opts.nextDueAt();
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!at) return;
    const delay = Math.max(0, at.getTime() - opts.now().getTime());
    if (delay > opts.pollMs) return;
    timer = setTimeout(tick, delay);
  }

  return {
    start: () => {
      if (!stopped) return;
      stopped = false;
      poll = setInterval(tick, opts.pollMs);
      poll.unref?.();
      tick();
    },
    stop: async () => {
      stopped = true;
      if (poll) clearInterval(poll);
      if (timer) clearTimeout(timer);
      await running;
    },
    wake: () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      void arm().catch((err) => opts.log.error({ err }, `${opts.name} timer not armed`));
    },
  };
};

/** runs `fn` over `items` with at most `concurrency` at once (the claimed rows of one pass) */
export const runPool = async <T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>) => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
};

/**
 * The value of `key` in a pass's cache (what a batch of sends shares: a company's settings, a campaign's
 * connection): read once by the first send that needs it, shared by the others; a failed read is not kept.
 */
export const memo = <K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>) => {
  let hit = map.get(key);
  if (!hit) {
    hit = load();
    map.set(key, hit);
    hit.catch(() => map.delete(key));
  }

  return hit;
};
