import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TDbOrTx } from './client';

/** a tenant table by the two columns an ownership check reads */
export type TOwnedTable = PgTable & { id: PgColumn; companyId: PgColumn };

/** which of `ids` are rows of `table` in `companyId` (a foreign id and a missing one are both left out) */
export const ownedIds = async (db: TDbOrTx, table: TOwnedTable, companyId: number, ids: number[]) => {
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, companyId), inArray(table.id, ids)));

  return new Set(rows.map((r) => r.id as number));
};
