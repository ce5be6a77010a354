import { and, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { announcements, companies } from '../../db/schema/index';
import { updateRows } from '../../db/update-rows';
import { likePattern } from '../../lib/paging';

export type TAnnouncementRow = typeof announcements.$inferSelect;
export type TAnnouncementInsert = typeof announcements.$inferInsert;

/**
 * Who reads: the super user manages every announcement (`all`); a company's users read the active ones
 * written for every company (`companyId` null, what the super user writes) or for their own company.
 */
export type TAnnouncementReader = { all: true } | { all: false; companyId: number };

const visibleTo = (reader: TAnnouncementReader): SQL | undefined =>
  reader.all
    ? undefined
    : and(
        eq(announcements.status, true),
        or(isNull(announcements.companyId), eq(announcements.companyId, reader.companyId)),
      );

const searching = (search: string): SQL | undefined =>
  search
    ? sql`(${announcements.title} ILIKE ${likePattern(search)} OR ${announcements.text} ILIKE ${likePattern(search)})`
    : undefined;

export const pageAnnouncements = async (
  db: TDbOrTx,
  reader: TAnnouncementReader,
  search: string,
  limit: number,
  offset: number,
) => {
  const where = and(visibleTo(reader), searching(search));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(announcements)
      .where(where)
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(announcements).where(where),
  ]);

  return { rows, total };
};

export const findAnnouncement = async (db: TDbOrTx, reader: TAnnouncementReader, id: number) =>
  (
    await db
      .select()
      .from(announcements)
      .where(and(eq(announcements.id, id), visibleTo(reader)))
  )[0];

export const insertAnnouncement = async (db: TDbOrTx, values: TAnnouncementInsert) =>
  (await db.insert(announcements).values(values).returning())[0];

export const updateAnnouncementRow = async (db: TDbOrTx, id: number, patch: Partial<TAnnouncementInsert>) =>
  (await updateRows(db, announcements, eq(announcements.id, id), patch))[0];

export const deleteAnnouncementRow = async (db: TDbOrTx, id: number) =>
  (await db.delete(announcements).where(eq(announcements.id, id)).returning())[0];

/** the row locked for a change of its image (two uploads at once leave one file, not an orphan) */
export const lockAnnouncement = async (db: TDbOrTx, id: number) =>
  (await db.select().from(announcements).where(eq(announcements.id, id)).for('update'))[0];

/** every company's id: the rooms an announcement is sent to */
export const listCompanyIds = async (db: TDbOrTx) =>
  (await db.select({ id: companies.id }).from(companies)).map((r) => r.id);
