import { and, asc, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { rebuildContactTicketsWords } from '../tickets/ticket-search.repo';
import { whatsapps } from '../../db/schema/connections';
import { contactCounts, contactCustomFields, contacts } from '../../db/schema/contacts';
import { foldText } from '../tickets/search-fold';
import { likePattern } from '../../lib/paging';
import { updateRows } from '../../db/update-rows';

export type TContactInsert = typeof contacts.$inferInsert;

const contactColumns = {
  id: contacts.id,
  name: contacts.name,
  number: contacts.number,
  email: contacts.email,
  profilePicUrl: contacts.profilePicUrl,
  isGroup: contacts.isGroup,
  disableBot: contacts.disableBot,
  whatsappId: contacts.whatsappId,
  whatsappName: whatsapps.name,
  createdAt: contacts.createdAt,
  updatedAt: contacts.updatedAt,
};

const selectContacts = (db: TDbOrTx) =>
  db
    .select(contactColumns)
    .from(contacts)
    .leftJoin(whatsapps, and(eq(whatsapps.id, contacts.whatsappId), eq(whatsapps.companyId, contacts.companyId)));

export type TContactRow = Awaited<ReturnType<ReturnType<typeof selectContacts>['execute']>>[number];

export type TContactFilter = {
  search: string;
  /** creation days (yyyy-MM-dd) in the company's time zone */
  dateStart?: string;
  dateEnd?: string;
  timezone: string;
};

/** the generated column of the folded name and e-mail (migration 0025; not declared in the drizzle schema) */
const searchColumn = sql`${contacts}.search`;

/**
 * A search by any part of the name, the e-mail or (a search of digits and phone punctuation) the number, accents
 * and case ignored: the term is folded as the ticket search folds (search-fold.ts) and lowercased by the database
 * that lowercased `search`, so both sides agree on every character.
 *
 * Which index answers (migration 0025):
 * - 3 characters or more: `search LIKE '%term%'`, a trigram index (pg_trgm) on `search`; the number's digits the
 *   same way on `number`.
 * - 1 or 2 characters: trigrams cannot hold them, so the term must be one of the contact's one- and two-character
 *   pieces (`contact_grams(search)`, an index of its own): a term nobody has is answered from the index alone. The
 *   LIKE before it is the same test, cheap enough for PostgreSQL to walk the page's order (`lower(name)`) and
 *   stop at the page's end when the term is common.
 */
const searchCondition = (search: string): SQL => {
  // the newline between name and e-mail in `search` is never part of a term
  const term = foldText(search).replaceAll('\n', '');
  const text =
    [...term].length > 2
      ? sql`${searchColumn} LIKE lower(${likePattern(term)})`
      : sql`(${searchColumn} LIKE lower(${likePattern(term)}) AND contact_grams(${searchColumn}) @> array[lower(${term})])`;
  // a number is searched by its digits ("+55 (11) 9…"); the digits of a name or e-mail are not a number search
  const digits = /^[\d\s()+.-]+$/.test(search) ? search.replace(/\D/g, '') : '';

  return digits.length > 0 ? sql`(${text} OR ${contacts.number} LIKE ${likePattern(digits)})` : text;
};

const filterWhere = (companyId: number, f: TContactFilter) => {
  // a flow test run's simulated customer is nobody's contact (flows/test-run.ts)
  const parts: SQL[] = [eq(contacts.companyId, companyId), eq(contacts.isTest, false)];
  if (f.search) parts.push(searchCondition(f.search));
  const day = sql`(${contacts.createdAt} at time zone ${f.timezone})::date`;
  if (f.dateStart) parts.push(sql`${day} >= ${f.dateStart}::date`);
  if (f.dateEnd) parts.push(sql`${day} <= ${f.dateEnd}::date`);

  return and(...parts);
};

const pageOrder = [asc(sql`lower(${contacts.name})`), asc(contacts.id)];

/**
 * A page of contacts and the count answered with it. Without a filter the count is the company's kept one
 * (`contact_counts`), read in the page's statement; with a date filter the matching contacts are counted. A search
 * is not counted (as the ticket search): one more row is read to know whether more follow, and the count answered
 * is the contacts up to this page plus that one — counting every "an" among 30,000 contacts costs more than the
 * page itself.
 */
export const pageContacts = async (
  db: TDbOrTx,
  companyId: number,
  f: TContactFilter,
  limit: number,
  offset: number,
) => {
  const where = filterWhere(companyId, f);
  if (f.search) {
    const rows = await selectContacts(db)
      .where(where)
      .orderBy(...pageOrder)
      .limit(limit + 1)
      .offset(offset);

    return { rows: rows.slice(0, limit), total: offset + rows.length };
  }
  if (f.dateStart || f.dateEnd) {
    const [rows, [{ total }]] = await Promise.all([
      selectContacts(db)
        .where(where)
        .orderBy(...pageOrder)
        .limit(limit)
        .offset(offset),
      db.select({ total: count() }).from(contacts).where(where),
    ]);

    return { rows, total };
  }
  const kept = sql<number>`coalesce((select ${contactCounts.contacts} from ${contactCounts} where ${contactCounts.companyId} = ${companyId}), 0)`;
  const rows = await db
    .select({ ...contactColumns, total: kept })
    .from(contacts)
    .leftJoin(whatsapps, and(eq(whatsapps.id, contacts.whatsappId), eq(whatsapps.companyId, contacts.companyId)))
    .where(where)
    .orderBy(...pageOrder)
    .limit(limit)
    .offset(offset);
  if (rows.length > 0) return { rows, total: rows[0].total };
  // a page past the end
  const [row] = await db
    .select({ total: contactCounts.contacts })
    .from(contactCounts)
    .where(eq(contactCounts.companyId, companyId));

  return { rows, total: row?.total ?? 0 };
};

export const listContactsBrief = (db: TDbOrTx, companyId: number, search: string, limit: number) =>
  db
    .select({
      id: contacts.id,
      name: contacts.name,
      number: contacts.number,
      email: contacts.email,
      profilePicUrl: contacts.profilePicUrl,
      isGroup: contacts.isGroup,
    })
    .from(contacts)
    .where(filterWhere(companyId, { search, timezone: 'UTC' }))
    .orderBy(...pageOrder)
    .limit(limit);

export const findContact = async (db: TDbOrTx, companyId: number, id: number) =>
  (await selectContacts(db).where(and(eq(contacts.companyId, companyId), eq(contacts.id, id))))[0];

export const extraInfoOf = async (db: TDbOrTx, companyId: number, contactIds: number[]) =>
  contactIds.length === 0
    ? []
    : db
        .select({
          id: contactCustomFields.id,
          contactId: contactCustomFields.contactId,
          name: contactCustomFields.name,
          value: contactCustomFields.value,
        })
        .from(contactCustomFields)
        .where(and(eq(contactCustomFields.companyId, companyId), inArray(contactCustomFields.contactId, contactIds)))
        .orderBy(asc(contactCustomFields.id));

/** whether another contact of the company has this number */
export const numberTaken = async (db: TDbOrTx, companyId: number, number: string, exceptId?: number) => {
  const base = and(eq(contacts.companyId, companyId), eq(contacts.number, number));
  const where = exceptId ? and(base, ne(contacts.id, exceptId)) : base;

  return (await db.select({ id: contacts.id }).from(contacts).where(where).limit(1)).length > 0;
};

export const insertContact = async (db: TDbOrTx, values: TContactInsert) =>
  (await db.insert(contacts).values(values).returning({ id: contacts.id }))[0];

/** changes a contact; a new name or number also rebuilds the search words of its tickets */
export const updateContactRow = async (db: TDbOrTx, companyId: number, id: number, values: Partial<TContactInsert>) => {
  await updateRows(db, contacts, and(eq(contacts.companyId, companyId), eq(contacts.id, id)), values);
  if (values.name !== undefined || values.number !== undefined) await rebuildContactTicketsWords(db, companyId, id);
};

export const deleteContactRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)))
      .returning({ id: contacts.id })
  ).length > 0;

/** the contact's custom fields become exactly these (ids kept where the name/value rows still exist) */
export const replaceExtraInfo = async (
  db: TDbOrTx,
  companyId: number,
  contactId: number,
  fields: { id?: number; name: string; value: string }[],
) => {
  const current = await extraInfoOf(db, companyId, [contactId]);
  const kept = new Set(fields.filter((f) => f.id !== undefined).map((f) => f.id));
  const gone = current.filter((c) => !kept.has(c.id)).map((c) => c.id);
  if (gone.length) {
    await db
      .delete(contactCustomFields)
      .where(and(eq(contactCustomFields.contactId, contactId), inArray(contactCustomFields.id, gone)));
  }
  const owned = new Set(current.map((c) => c.id));
  for (const field of fields) {
    if (field.id !== undefined && owned.has(field.id)) {
      await db
        .update(contactCustomFields)
        .set({ name: field.name, value: field.value })
        .where(and(eq(contactCustomFields.contactId, contactId), eq(contactCustomFields.id, field.id)));
    } else {
      await db.insert(contactCustomFields).values({ companyId, contactId, name: field.name, value: field.value });
    }
  }
};

/** the company's default connection when it is connected (numbers are checked through it) */
export const connectedDefaultConnection = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true), eq(whatsapps.status, 'CONNECTED')))
      .limit(1)
  )[0];
