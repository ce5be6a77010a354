import { and, asc, count, eq, ne, or, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { quickMessages } from '../../db/schema/quick-messages';
import { likePattern } from '../../lib/paging';
import { updateRows } from '../../db/update-rows';

export type TQuickMessageRow = typeof quickMessages.$inferSelect;
export type TQuickMessageInsert = typeof quickMessages.$inferInsert;

/** what a user sees: the company's shared ones and their own (admins: all of the company's) */
const visibleWhere = (companyId: number, viewer: { userId: number; all: boolean }) =>
  viewer.all
    ? eq(quickMessages.companyId, companyId)
    : and(
        eq(quickMessages.companyId, companyId),
        or(eq(quickMessages.geral, true), eq(quickMessages.userId, viewer.userId)),
      );

const order = [asc(sql`lower(${quickMessages.shortcode})`), asc(quickMessages.id)];

export const listActiveVisible = (db: TDbOrTx, companyId: number, userId: number) =>
  db
    .select()
    .from(quickMessages)
    .where(and(visibleWhere(companyId, { userId, all: false }), eq(quickMessages.status, true)))
    .orderBy(...order);

export const pageQuickMessages = async (
  db: TDbOrTx,
  companyId: number,
  viewer: { userId: number; all: boolean },
  search: string,
  limit: number,
  offset: number,
) => {
  const parts: (SQL | undefined)[] = [visibleWhere(companyId, viewer)];
  if (search) {
    parts.push(
      sql`(${quickMessages.shortcode} ILIKE ${likePattern(search)} OR ${quickMessages.message} ILIKE ${likePattern(search)})`,
    );
  }
  const where = and(...parts);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(quickMessages)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(quickMessages).where(where),
  ]);

  return { rows, total };
};

export const findQuickMessage = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(quickMessages)
      .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)))
  )[0];

export const shortcodeTaken = async (db: TDbOrTx, companyId: number, shortcode: string, exceptId?: number) => {
  const base = and(
    eq(quickMessages.companyId, companyId),
    sql`lower(${quickMessages.shortcode}) = ${shortcode.toLowerCase()}`,
  );

  return (
    (
      await db
        .select({ id: quickMessages.id })
        .from(quickMessages)
        .where(exceptId ? and(base, ne(quickMessages.id, exceptId)) : base)
        .limit(1)
    ).length > 0
  );
};

export const insertQuickMessage = async (db: TDbOrTx, values: TQuickMessageInsert) =>
  (await db.insert(quickMessages).values(values).returning())[0];

export const updateQuickMessageRow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  values: Partial<TQuickMessageInsert>,
) =>
  (
    await updateRows(db, quickMessages, and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)), values)
  )[0];

/** the quick message of the company, locked until the transaction ends (its attached file changes under it) */
export const lockQuickMessage = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(quickMessages)
      .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)))
      .for('update')
  )[0];

/** sets (or, with nulls, clears) the attached file */
export const setQuickMessageMedia = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  media: { mediaPath: string | null; mediaName: string | null },
) =>
  (
    await db
      .update(quickMessages)
      .set(media)
      .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)))
      .returning()
  )[0];

/** deletes it; answers its attached file's name, undefined when there was no such row */
export const deleteQuickMessageRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(quickMessages)
      .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)))
      .returning({ mediaPath: quickMessages.mediaPath })
  )[0];
