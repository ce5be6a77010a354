import { and, asc, count, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { files, filesOptions } from '../../db/schema/files';
import { likePattern } from '../../lib/paging';

export type TFileListRow = typeof files.$inferSelect;
export type TFileOptionRow = typeof filesOptions.$inferSelect;

const ofCompany = (companyId: number, id: number) => and(eq(files.companyId, companyId), eq(files.id, id));

/** the company's lists by name, `search` in the name (ILIKE), with the total for the page answer */
export const pageFileLists = async (db: TDbOrTx, companyId: number, search: string, limit: number, offset: number) => {
  const where = search
    ? and(eq(files.companyId, companyId), sql`${files.name} ILIKE ${likePattern(search)}`)
    : eq(files.companyId, companyId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(files)
      .where(where)
      .orderBy(asc(sql`lower(${files.name})`), asc(files.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(files).where(where),
  ]);

  return { rows, total };
};

/** every list of the company (selects), by name */
export const allFileLists = (db: TDbOrTx, companyId: number, search: string) =>
  db
    .select()
    .from(files)
    .where(
      search
        ? and(eq(files.companyId, companyId), sql`${files.name} ILIKE ${likePattern(search)}`)
        : eq(files.companyId, companyId),
    )
    .orderBy(asc(sql`lower(${files.name})`), asc(files.id));

/** the options of these lists (of the company), in the order they were added */
export const optionsOfLists = async (db: TDbOrTx, companyId: number, fileIds: number[]) =>
  fileIds.length === 0
    ? []
    : db
        .select()
        .from(filesOptions)
        .where(and(eq(filesOptions.companyId, companyId), inArray(filesOptions.fileId, fileIds)))
        .orderBy(asc(filesOptions.id));

export const findFileList = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.select().from(files).where(ofCompany(companyId, id)))[0];

/** the list, locked until the transaction ends (its options change under it) */
export const lockFileList = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.select().from(files).where(ofCompany(companyId, id)).for('update'))[0];

/** another list of the company with this name, ignoring case */
export const fileListNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) => {
  const base = and(eq(files.companyId, companyId), sql`lower(${files.name}) = ${name.toLowerCase()}`);
  const rows = await db
    .select({ id: files.id })
    .from(files)
    .where(exceptId ? and(base, ne(files.id, exceptId)) : base)
    .limit(1);

  return rows.length > 0;
};

export const insertFileList = async (db: TDbOrTx, values: typeof files.$inferInsert) =>
  (await db.insert(files).values(values).returning())[0];

export const updateFileListRow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  values: { name: string; message: string },
) => (await db.update(files).set(values).where(ofCompany(companyId, id)).returning())[0];

export const insertOptions = async (
  db: TDbOrTx,
  companyId: number,
  fileId: number,
  names: string[],
): Promise<TFileOptionRow[]> =>
  names.length === 0
    ? []
    : db
        .insert(filesOptions)
        .values(names.map((name) => ({ companyId, fileId, name })))
        .returning();

export const renameOption = async (db: TDbOrTx, companyId: number, fileId: number, id: number, name: string) =>
  db
    .update(filesOptions)
    .set({ name })
    .where(and(eq(filesOptions.companyId, companyId), eq(filesOptions.fileId, fileId), eq(filesOptions.id, id)));

/** removes the list's options other than `keep`; answers the stored file names they leave behind */
export const deleteOptionsExcept = async (db: TDbOrTx, companyId: number, fileId: number, keep: number[]) =>
  (
    await db
      .delete(filesOptions)
      .where(
        and(
          eq(filesOptions.companyId, companyId),
          eq(filesOptions.fileId, fileId),
          keep.length ? notInArray(filesOptions.id, keep) : undefined,
        ),
      )
      .returning({ path: filesOptions.path })
  ).map((r) => r.path);

/** points an option at a stored file */
export const setOptionFile = async (
  db: TDbOrTx,
  companyId: number,
  fileId: number,
  id: number,
  values: { path: string; mediaType: string; name?: string },
) =>
  (
    await db
      .update(filesOptions)
      .set(values)
      .where(and(eq(filesOptions.companyId, companyId), eq(filesOptions.fileId, fileId), eq(filesOptions.id, id)))
      .returning()
  )[0];

/** touches the list's `updatedAt` (its files changed) */
export const touchFileList = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.update(files).set({ updatedAt: new Date() }).where(ofCompany(companyId, id)).returning())[0];

/** deletes the list (its options go with it); answers their stored file names, undefined when there was none */
export const deleteFileListRow = async (db: TDbOrTx, companyId: number, id: number) => {
  const paths = (
    await db
      .select({ path: filesOptions.path })
      .from(filesOptions)
      .where(and(eq(filesOptions.companyId, companyId), eq(filesOptions.fileId, id)))
  ).map((r) => r.path);
  const deleted = await db.delete(files).where(ofCompany(companyId, id)).returning({ id: files.id });

  return deleted.length ? paths : undefined;
};
