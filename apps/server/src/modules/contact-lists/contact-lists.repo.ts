import { and, asc, count, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { contactListItems, contactLists } from '../../db/schema/campaigns';
import { whatsapps } from '../../db/schema/connections';
import { settings } from '../../db/schema/index';
import { updateRows } from '../../db/update-rows';
import { likePattern } from '../../lib/paging';

export type TContactListRow = typeof contactLists.$inferSelect;
export type TContactListItemRow = typeof contactListItems.$inferSelect;
export type TContactListItemInsert = typeof contactListItems.$inferInsert;

/** the `campaignsEnabled` company setting (absent = enabled) */
export const campaignsSetting = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, 'campaignsEnabled')))
      .limit(1)
  )[0]?.value;

// ---- lists

// written out: inside a subquery Drizzle would leave the outer column unqualified
const contactsCount = sql<number>`(select count(*)::int from contact_list_items i where i.contact_list_id = contact_lists.id)`;
const validCount = sql<number>`(select count(*)::int from contact_list_items i where i.contact_list_id = contact_lists.id and i.is_whatsapp_valid = true)`;
const listColumns = {
  id: contactLists.id,
  name: contactLists.name,
  companyId: contactLists.companyId,
  createdAt: contactLists.createdAt,
  updatedAt: contactLists.updatedAt,
  contactsCount,
  validCount,
};
const listOrder = [asc(sql`lower(${contactLists.name})`), asc(contactLists.id)];

export const pageContactLists = async (
  db: TDbOrTx,
  companyId: number,
  search: string,
  limit: number,
  offset: number,
) => {
  const where = search
    ? and(eq(contactLists.companyId, companyId), sql`${contactLists.name} ILIKE ${likePattern(search)}`)
    : eq(contactLists.companyId, companyId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(listColumns)
      .from(contactLists)
      .where(where)
      .orderBy(...listOrder)
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(contactLists).where(where),
  ]);

  return { rows, total };
};

export const allContactLists = (db: TDbOrTx, companyId: number) =>
  db
    .select(listColumns)
    .from(contactLists)
    .where(eq(contactLists.companyId, companyId))
    .orderBy(...listOrder);

export const findContactList = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select(listColumns)
      .from(contactLists)
      .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
  )[0];

/** the list row of the company, locked until the transaction ends (imports of one list run one at a time) */
export const lockContactList = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
      .for('update')
  ).length > 0;

export const listNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) => {
  const base = and(eq(contactLists.companyId, companyId), sql`lower(${contactLists.name}) = ${name.toLowerCase()}`);

  return (
    (
      await db
        .select({ id: contactLists.id })
        .from(contactLists)
        .where(exceptId ? and(base, ne(contactLists.id, exceptId)) : base)
        .limit(1)
    ).length > 0
  );
};

export const insertContactList = async (db: TDbOrTx, companyId: number, name: string) =>
  (await db.insert(contactLists).values({ companyId, name }).returning({ id: contactLists.id }))[0];

export const renameContactList = (db: TDbOrTx, companyId: number, id: number, name: string) =>
  updateRows(db, contactLists, and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)), {
    name,
    updatedAt: new Date(),
  });

export const touchContactList = (db: TDbOrTx, companyId: number, id: number) =>
  db
    .update(contactLists)
    .set({ updatedAt: new Date() })
    .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)));

export const deleteContactListRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(contactLists)
      .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
      .returning({ id: contactLists.id })
  ).length > 0;

// ---- items

const itemOrder = [asc(sql`lower(${contactListItems.name})`), asc(contactListItems.id)];

export const pageItems = async (
  db: TDbOrTx,
  companyId: number,
  contactListId: number,
  search: string,
  limit: number,
  offset: number,
) => {
  const base = and(eq(contactListItems.companyId, companyId), eq(contactListItems.contactListId, contactListId));
  const digits = search.replace(/\D/g, '');
  const where = search
    ? and(
        base,
        or(
          sql`${contactListItems.name} ILIKE ${likePattern(search)}`,
          sql`${contactListItems.email} ILIKE ${likePattern(search)}`,
          digits ? sql`${contactListItems.number} LIKE ${likePattern(digits)}` : undefined,
        ),
      )
    : base;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(contactListItems)
      .where(where)
      .orderBy(...itemOrder)
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(contactListItems).where(where),
  ]);

  return { rows, total };
};

export const findItem = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(contactListItems)
      .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)))
  )[0];

export const itemNumberTaken = async (db: TDbOrTx, contactListId: number, number: string, exceptId?: number) => {
  const base = and(eq(contactListItems.contactListId, contactListId), eq(contactListItems.number, number));

  return (
    (
      await db
        .select({ id: contactListItems.id })
        .from(contactListItems)
        .where(exceptId ? and(base, ne(contactListItems.id, exceptId)) : base)
        .limit(1)
    ).length > 0
  );
};

export const insertItem = async (db: TDbOrTx, values: TContactListItemInsert) =>
  (await db.insert(contactListItems).values(values).returning())[0];

export const updateItemRow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  patch: Partial<Pick<TContactListItemInsert, 'name' | 'number' | 'email' | 'isWhatsappValid'>>,
) =>
  (
    await updateRows(
      db,
      contactListItems,
      and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)),
      {
        ...patch,
        updatedAt: new Date(),
      },
    )
  )[0];

export const deleteItemRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(contactListItems)
      .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)))
      .returning({ id: contactListItems.id, contactListId: contactListItems.contactListId })
  )[0];

/**
 * One batch of an import: rows new to the list are inserted, rows whose number the list holds have their
 * name and e-mail updated (their validity stays). Answers how many of each.
 */
export const upsertItems = async (
  db: TDbOrTx,
  companyId: number,
  contactListId: number,
  rows: { name: string; number: string; email: string }[],
) => {
  if (rows.length === 0) return { created: 0, updated: 0 };
  const now = new Date();
  const answered = await db
    .insert(contactListItems)
    .values(rows.map((r) => ({ ...r, companyId, contactListId, createdAt: now, updatedAt: now })))
    .onConflictDoUpdate({
      target: [contactListItems.contactListId, contactListItems.number],
      set: { name: sql`excluded.name`, email: sql`excluded.email`, updatedAt: now },
    })
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  const created = answered.filter((r) => r.inserted).length;

  return { created, updated: answered.length - created };
};

/** marks items "not checked" again: the whole list, or some items */
export const resetValidity = (db: TDbOrTx, companyId: number, contactListId: number, ids?: number[]) =>
  db
    .update(contactListItems)
    .set({ isWhatsappValid: null })
    .where(
      and(
        eq(contactListItems.companyId, companyId),
        eq(contactListItems.contactListId, contactListId),
        ids ? inArray(contactListItems.id, ids) : undefined,
      ),
    );

/** the next items of the company still to check, in id order after `afterId` */
export const uncheckedItems = (db: TDbOrTx, companyId: number, afterId: number, limit: number) =>
  db
    .select({ id: contactListItems.id, number: contactListItems.number, contactListId: contactListItems.contactListId })
    .from(contactListItems)
    .where(
      and(
        eq(contactListItems.companyId, companyId),
        isNull(contactListItems.isWhatsappValid),
        gt(contactListItems.id, afterId),
      ),
    )
    .orderBy(asc(contactListItems.id))
    .limit(limit);

/**
 * Stores a check's answer: valid or not, and the canonical number the transport gave when the list does not
 * hold it already (else the number stays as it was).
 */
export const storeValidity = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  valid: boolean,
  canonical: string | null,
) => {
  const where = and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id));
  if (canonical) {
    const moved = await db
      .update(contactListItems)
      .set({ isWhatsappValid: valid, number: canonical })
      .where(
        and(
          where,
          sql`not exists (select 1 from contact_list_items other where other.contact_list_id = contact_list_items.contact_list_id and other.number = ${canonical} and other.id <> contact_list_items.id)`,
        ),
      )
      .returning({ id: contactListItems.id });
    if (moved.length) return;
  }
  await db.update(contactListItems).set({ isWhatsappValid: valid }).where(where);
};

/** a CONNECTED connection of the company: its default one first */
export const connectedConnection = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.status, 'CONNECTED')))
      .orderBy(sql`${whatsapps.isDefault} desc`, asc(whatsapps.id))
      .limit(1)
  )[0];
