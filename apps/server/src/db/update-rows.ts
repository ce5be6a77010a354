import type { SQL } from 'drizzle-orm';
import type { PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { TDbOrTx } from './client';

/** whether a patch sets anything: Drizzle drops `undefined` values, and refuses a SET left empty */
export const setsSomething = (patch: object) => Object.values(patch).some((value) => value !== undefined);

/**
 * `update … set patch where … returning *`, or, when the patch sets nothing, the rows as they are.
 * Legacy clients send PUT bodies with no field Zelo knows (the schemas strip them): such an update answers
 * the entity unchanged instead of Drizzle's "No values to set".
 */
export const updateRows = async <T extends PgTable>(
  db: TDbOrTx,
  table: T,
  where: SQL | undefined,
  patch: PgUpdateSetSource<T>,
): Promise<T['$inferSelect'][]> => {
  if (!setsSomething(patch))
    return (await db
      .select()
      .from(table as PgTable)
      .where(where)) as T['$inferSelect'][];

  return (await db.update(table).set(patch).where(where).returning()) as T['$inferSelect'][];
};
