import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { rebuildContactTicketsWords } from '../tickets/ticket-search.repo';
import { whatsapps } from '../../db/schema/connections';
import { contactCustomFields, contacts } from '../../db/schema/contacts';
import { queryRows, SqlParams } from '../../db/statements';
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

/** a contact as GET /contacts answers it (ZContact), in its order */
export type TContactPageRow = [
  id: number,
  name: string,
  number: string,
  email: string,
  profilePicUrl: string,
  isGroup: boolean,
  disableBot: boolean,
  extraInfo: { id: number; name: string; value: string }[],
  whatsappId: number | null,
  whatsappName: string | null,
  createdAt: string,
  updatedAt: string,
];

/** the page's columns (TContactPageRow) of a row `c` joined to its connection `w`, custom fields included */
const PAGE_COLUMNS = `c.id, c.name, c.number, c.email, c.profile_pic_url, c.is_group, c.disable_bot,
  coalesce((select json_agg(json_build_object('id', f.id, 'name', f.name, 'value', f.value) order by f.id)
    from contact_custom_fields f where f.contact_id = c.id and f.company_id = c.company_id), '[]'),
  c.whatsapp_id, w.name, c.created_at, c.updated_at`;
const WITH_CONNECTION = 'left join whatsapps w on w.id = c.whatsapp_id and w.company_id = c.company_id';
const ORDER = 'order by lower(c.name), c.id';

/** the company's contacts of these days (a flow test run's simulated customer is nobody's: flows/test-run.ts) */
const companyWhere = (p: SqlParams, companyId: number, f: TContactFilter) => {
  const parts = [`c.company_id = ${p.fixed(companyId, 'int')}`, 'not c.is_test'];
  const day = () => `(c.created_at at time zone ${p.value(f.timezone, 'text')})::date`;
  if (f.dateStart) parts.push(`${day()} >= ${p.value(f.dateStart, 'date')}`);
  if (f.dateEnd) parts.push(`${day()} <= ${p.value(f.dateEnd, 'date')}`);

  return parts.join(' and ');
};

/**
 * A search by any part of the name, the e-mail or (a search of digits and phone punctuation) the number, accents
 * and case ignored. `search` (migration 0025) is the name and e-mail folded as the ticket search folds
 * (search-fold.ts) and lowercased; the term is folded the same way and lowercased by the same database, so both
 * sides agree on every character. The values are plain parameters of an unnamed statement, so PostgreSQL plans
 * each search for its term: a rare one from an index — the trigram index (pg_trgm) on `search`, or on `number`
 * for its digits — then sorted; a common one by walking the page's order until the page is full, in the index
 * alone (`contacts_company_order_idx` carries `search`: a term whose contacts sort late, "joão" among names that
 * start with the first name, passes over thousands of index entries, not thousands of rows). Only the page's
 * ids come out of that walk; its rows are read after.
 *
 * A term of 1 or 2 characters has no trigram. It is checked row by row in the page's order, behind a guard that
 * PostgreSQL runs once: does any contact of the company have it among the distinct 1–2 character pieces of its
 * `search` (`contact_grams`, an index of its own)? A term nobody has is so answered from that index alone.
 */
const searchCondition = (p: SqlParams, companyId: number, search: string) => {
  // the newline between name and e-mail in `search` is never part of a term
  const term = foldText(search).replaceAll('\n', '');
  const like = `c.search like lower(${p.value(likePattern(term), 'text')})`;
  // a number is searched by its digits ("+55 (11) 9…"); the digits of a name or e-mail are not a number search
  const digits = /^[\d\s()+.-]+$/.test(search) ? search.replace(/\D/g, '') : '';
  if (digits) return `(${like} or c.number like ${p.value(likePattern(digits), 'text')})`;
  if ([...term].length > 2) return like;

  // `offset 0`: the pieces index, not a walk of the company's contacts computing each one's pieces. Where PostgreSQL
  // expects the term in many contacts it reads the table until the first one instead: the cheap `like` (true
  // exactly when the pieces hold the term) is checked first, so the pieces are computed for that one row only
  // (computing them for each row passed over took ~40 µs a row: 1.1 ms for "z")
  return `${like} and exists (select 1 from (select g.company_id, g.is_test from contacts g
    where contact_grams(g.search) @> array[lower(${p.value(term, 'text')})]
      and g.search like lower(${p.value(likePattern(term), 'text')}) offset 0) g
    where g.company_id = ${p.value(companyId, 'int')} and not g.is_test)`;
};

const read = <TRow = TContactPageRow>(db: TDbOrTx, statement: { text: string; values: unknown[] }, unnamed = false) =>
  queryRows<TRow>(db, statement.text, statement.values, { arrays: true, isoTimestamps: true, unnamed });

/** the kept count of the company's contacts (contact_counts, triggers of migration 0025) */
const keptCount = (p: SqlParams, companyId: number) =>
  `coalesce((select n.contacts from contact_counts n where n.company_id = ${p.fixed(companyId, 'int')}), 0)`;

/**
 * A page of contacts in name order and the count answered with it, as SQL text run as named prepared statements
 * (db/statements.ts): one statement a page, the custom fields included.
 *
 * - No filter: the count is the company's kept one, read in the page's statement. A date filter counts its
 *   contacts.
 * - A search (searchCondition) is not counted (as the ticket search): one more row is read to know whether more
 *   follow, and the count answered is the contacts up to this page plus that one (counting every "an" among
 *   30,000 contacts costs more than the page). It is two statements: the page's ids, unnamed so that PostgreSQL
 *   plans it for its term, then their rows by the prepared statement every search shares (planning the page's
 *   columns with the search took PostgreSQL ~0.2 ms a request, as long as running it).
 */
export const pageContacts = async (
  db: TDbOrTx,
  companyId: number,
  f: TContactFilter,
  limit: number,
  offset: number,
): Promise<{ rows: TContactPageRow[]; total: number }> => {
  const skip = offset > 0 ? ` offset ${offset | 0}` : '';
  if (!f.search) {
    const p = new SqlParams();
    const where = companyWhere(p, companyId, f);
    const total =
      f.dateStart || f.dateEnd ? `(select count(*)::int from contacts c where ${where})` : keptCount(p, companyId);
    // the count rides on every row; a page past the end asks for it alone
    const rows = await read<[...TContactPageRow, number]>(
      db,
      p.render(
        `select ${PAGE_COLUMNS}, ${total} from contacts c ${WITH_CONNECTION} where ${where} ${ORDER} limit ${limit | 0}${skip}`,
      ),
    );
    if (rows.length > 0) {
      return { rows: rows.map((r) => r.slice(0, -1) as TContactPageRow), total: rows[0].at(-1) as number };
    }
    const q = new SqlParams();
    const alone = q.render(
      f.dateStart || f.dateEnd
        ? `select count(*)::int from contacts c where ${companyWhere(q, companyId, f)}`
        : `select ${keptCount(q, companyId)}`,
    );

    return { rows: [], total: (await read<[number]>(db, alone))[0][0] };
  }
  // the page's ids, planned for this term (unnamed: the plan of the small statement costs a fifth of the page's)
  const p = new SqlParams();
  const ids = await read<[number]>(
    db,
    p.render(`select c.id from contacts c where ${companyWhere(p, companyId, f)}
      and ${searchCondition(p, companyId, f.search)} ${ORDER} limit ${limit + 1}${skip}`),
    true,
  );
  if (ids.length === 0) return { rows: [], total: offset };
  // their rows, by a prepared statement planned once
  const q = new SqlParams();
  const pageIds = ids.slice(0, limit).map(([id]) => id);
  const found = await read(
    db,
    q.render(`select ${PAGE_COLUMNS} from contacts c ${WITH_CONNECTION}
      where c.company_id = ${q.fixed(companyId, 'int')} and ${q.anyOf('c.id', pageIds, 'int')} ${ORDER}`),
  );

  return { rows: found, total: offset + ids.length };
};

/** the autocomplete's short rows: the page's search, `limit` rows */
export const listContactsBrief = async (db: TDbOrTx, companyId: number, search: string, limit: number) =>
  (await pageContacts(db, companyId, { search, timezone: 'UTC' }, limit, 0)).rows.map(
    ([id, name, number, email, profilePicUrl, isGroup]) => ({ id, name, number, email, profilePicUrl, isGroup }),
  );

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
