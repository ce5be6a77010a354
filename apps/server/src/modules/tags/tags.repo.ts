import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { tags } from '../../db/schema/tags';
import { tickets, ticketTags } from '../../db/schema/tickets';
import { likePattern } from '../../lib/paging';
import { updateRows } from '../../db/update-rows';

export type TTagRow = typeof tags.$inferSelect;
export type TTagInsert = typeof tags.$inferInsert;

const order = [asc(sql`lower(${tags.name})`), asc(tags.id)];

export const listTagRows = (db: TDbOrTx, companyId: number, kanbanOnly = false) =>
  db
    .select()
    .from(tags)
    .where(kanbanOnly ? and(eq(tags.companyId, companyId), eq(tags.kanban, 1)) : eq(tags.companyId, companyId))
    .orderBy(...order);

/** kept by triggers on `ticket_tags` (migration 0025): no request counts a tag's tickets */
const ticketsCount = tags.ticketsCount;
/** a tag as its page and its read answer it */
const tagColumns = {
  id: tags.id,
  name: tags.name,
  color: tags.color,
  kanban: tags.kanban,
  userId: tags.userId,
  ticketsCount,
};

/** a page of the company's tags with their kept ticket counts; the page's count rides on its rows (one statement) */
export const pageTags = async (db: TDbOrTx, companyId: number, search: string, limit: number, offset: number) => {
  const where = search
    ? and(eq(tags.companyId, companyId), sql`${tags.name} ILIKE ${likePattern(search)}`)
    : eq(tags.companyId, companyId);
  const total = sql<number>`(select count(*)::int from tags x where x.company_id = ${companyId}${
    search ? sql` and x.name ILIKE ${likePattern(search)}` : sql``
  })`;
  const rows = await db
    .select({ ...tagColumns, total })
    .from(tags)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  if (rows.length > 0) return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0].total };
  // a page past the end
  const [{ n }] = await db.select({ n: count() }).from(tags).where(where);

  return { rows: [], total: n };
};

export const findTag = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select(tagColumns)
      .from(tags)
      .where(and(eq(tags.companyId, companyId), eq(tags.id, id)))
  )[0];

export const tagNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) => {
  const base = and(eq(tags.companyId, companyId), sql`lower(${tags.name}) = ${name.toLowerCase()}`);

  return (
    (
      await db
        .select({ id: tags.id })
        .from(tags)
        .where(exceptId ? and(base, ne(tags.id, exceptId)) : base)
        .limit(1)
    ).length > 0
  );
};

export const insertTag = async (db: TDbOrTx, values: TTagInsert) =>
  (await db.insert(tags).values(values).returning({ id: tags.id }))[0];

export const updateTagRow = (db: TDbOrTx, companyId: number, id: number, values: Partial<TTagInsert>) =>
  updateRows(db, tags, and(eq(tags.companyId, companyId), eq(tags.id, id)), values);

export const deleteTagRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(tags)
      .where(and(eq(tags.companyId, companyId), eq(tags.id, id)))
      .returning({ id: tags.id })
  ).length > 0;

/** how many of these ids are tags of the company */
export const countCompanyTags = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? 0
    : (
        await db
          .select({ total: count() })
          .from(tags)
          .where(and(eq(tags.companyId, companyId), inArray(tags.id, ids)))
      )[0].total;

/** the ticket row of the company, locked until the transaction ends */
export const lockTicket = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
      .for('update')
  ).length > 0;

export const replaceTicketTags = async (db: TDbOrTx, companyId: number, ticketId: number, tagIds: number[]) => {
  await db.delete(ticketTags).where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, ticketId)));
  if (tagIds.length) await db.insert(ticketTags).values(tagIds.map((tagId) => ({ companyId, ticketId, tagId })));
};

export const addTicketTag = (db: TDbOrTx, companyId: number, ticketId: number, tagId: number) =>
  db.insert(ticketTags).values({ companyId, ticketId, tagId }).onConflictDoNothing();

/** removes the ticket's kanban-lane tags only */
export const removeKanbanTags = (db: TDbOrTx, companyId: number, ticketId: number) =>
  db.delete(ticketTags).where(
    and(
      eq(ticketTags.companyId, companyId),
      eq(ticketTags.ticketId, ticketId),
      inArray(
        ticketTags.tagId,
        db
          .select({ id: tags.id })
          .from(tags)
          .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 1))),
      ),
    ),
  );

export const tagsOfTicket = (db: TDbOrTx, companyId: number, ticketId: number) =>
  db
    .select({ id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, ticketId)))
    .orderBy(...order);
