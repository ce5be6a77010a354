/**
 * Group commit: items submitted while a batch is running wait for the next batch, so the work of many
 * items shares one round of statements. Nothing waits on a timer: an idle batcher starts a batch on the
 * next turn of the event loop (taking whatever arrived in the same turn), a busy one as soon as a batch
 * ends. At most `concurrency` batches run at once, each of at most `maxSize` items, in arrival order.
 *
 * `run` answers one result per item, in the items' order; when it throws, every item of that batch
 * fails with the same error.
 */
export type TBatcher<TItem, TResult> = {
  submit: (item: TItem) => Promise<TResult>;
  /** items waiting and batches running (tests, shutdown) */
  pending: () => number;
};

type TWaiting<TItem, TResult> = { item: TItem; done: (r: TResult) => void; fail: (e: unknown) => void };

export const createBatcher = <TItem, TResult>(opts: {
  maxSize: number;
  concurrency: number;
  run: (items: TItem[]) => Promise<TResult[]>;
}): TBatcher<TItem, TResult> => {
  const waiting: TWaiting<TItem, TResult>[] = [];
  let running = 0;
  let scheduled = false;

  const start = (batch: TWaiting<TItem, TResult>[]) => {
    running += 1;
    opts
      .run(batch.map((w) => w.item))
      .then(
        (results) => {
          for (const [i, w] of batch.entries()) w.done(results[i] as TResult);
        },
        (err) => {
          for (const w of batch) w.fail(err);
        },
      )
      .finally(() => {
        running -= 1;
        pump();
      });
  };

  const pump = () => {
    while (running < opts.concurrency && waiting.length > 0) start(waiting.splice(0, opts.maxSize));
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  };

  return {
    submit: (item) =>
      new Promise<TResult>((done, fail) => {
        waiting.push({ item, done, fail });
        if (running < opts.concurrency) schedule();
      }),
    pending: () => waiting.length + running,
  };
};
