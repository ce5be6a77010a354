import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { queueOptions } from '../../db/schema/queues';
import { updateRows } from '../../db/update-rows';

export type TQueueOptionRow = typeof queueOptions.$inferSelect;

const siblingsWhere = (companyId: number, queueId: number, parentId: number | null) =>
  and(
    eq(queueOptions.companyId, companyId),
    eq(queueOptions.queueId, queueId),
    parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
  );

/** the options under one parent, in menu order (numeric keys by value, then the others) */
export const listSiblings = (db: TDbOrTx, companyId: number, queueId: number, parentId: number | null) =>
  db
    .select()
    .from(queueOptions)
    .where(siblingsWhere(companyId, queueId, parentId))
    .orderBy(
      sql`case when ${queueOptions.option} ~ '^[0-9]{1,9}$' then ${queueOptions.option}::int end asc nulls last`,
      asc(queueOptions.option),
      asc(queueOptions.id),
    );

export const findOption = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(queueOptions)
      .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)))
  )[0];

export const optionKeyTaken = async (
  db: TDbOrTx,
  companyId: number,
  queueId: number,
  parentId: number | null,
  option: string,
  exceptId?: number,
) => {
  const base = and(siblingsWhere(companyId, queueId, parentId), eq(queueOptions.option, option));

  return (
    (
      await db
        .select({ id: queueOptions.id })
        .from(queueOptions)
        .where(exceptId ? and(base, ne(queueOptions.id, exceptId)) : base)
        .limit(1)
    ).length > 0
  );
};

export const insertOption = async (db: TDbOrTx, values: typeof queueOptions.$inferInsert) =>
  (await db.insert(queueOptions).values(values).returning())[0];

export const updateOptionRow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  values: Partial<typeof queueOptions.$inferInsert>,
) =>
  (await updateRows(db, queueOptions, and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)), values))[0];

/** deletes the option; its sub-options go with it (foreign key cascade) */
export const deleteOptionRow = (db: TDbOrTx, companyId: number, id: number) =>
  db.delete(queueOptions).where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)));
