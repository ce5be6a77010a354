import type { TDbOrTx } from './client';

/**
 * A query built and prepared once per database handle (drizzle's `.prepare()`), then only executed:
 * no query building per call, and on PostgreSQL a named statement that each pooled connection parses
 * and plans once. `name` must be unique per SQL text. Handles are kept weakly (tests open many).
 */
export const preparedQuery = <TQuery>(build: (db: TDbOrTx, name: string) => TQuery, name: string) => {
  const cache = new WeakMap<TDbOrTx, TQuery>();

  return (db: TDbOrTx) => {
    let query = cache.get(db);
    if (!query) {
      query = build(db, name);
      cache.set(db, query);
    }

    return query;
  };
};
