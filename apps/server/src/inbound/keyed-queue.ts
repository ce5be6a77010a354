/**
 * One task at a time per key, in arrival order (an in-process lock: per contact of a connection here).
 * Several nodes are kept apart by the ticket row lock the automation takes in its transaction.
 */
export const createKeyedQueue = () => {
  const tails = new Map<string, Promise<unknown>>();

  const run = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    tails.set(key, next);
    const cleanup = () => {
      if (tails.get(key) === next) tails.delete(key);
    };
    next.then(cleanup, cleanup);

    return next;
  };

  return { run, size: () => tails.size };
};
