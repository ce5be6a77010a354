/**
 * Contacts (number, name, e-mail, group flag, disabled bot, custom fields) and tags (colour, kanban lane).
 * Rules: a contact of no imported company is skipped; a second contact with the same number in one company
 * is not imported and its tickets and messages go to the first (the report counts them); an empty name
 * becomes the number; a tag colour that is not hex becomes the default.
 */
import { contactCustomFields, contacts } from '../../../db/schema/contacts';
import { tags } from '../../../db/schema/tags';
import { bool, colour, cut, date, idOrNull, int, nameOr } from '../clean';
import { insertRows } from '../insert';
import { idsOf, ownersOf, type TModel, takenOf } from '../model';
import type { TSourceRow } from '../source';
import { restoreOwned, rowsOf } from './_restore';
import { uniqueName } from './core';

export const stamps = (r: TSourceRow) => ({
  createdAt: date(r.createdAt, new Date()) ?? undefined,
  updatedAt: date(r.updatedAt, new Date()) ?? undefined,
});

/** `company:number` → kept contact id, built while contacts are mapped (or restored) */
const numberKey = (companyId: number, number: string) => `${companyId}:${number}`;

type TContact = typeof contacts.$inferInsert;
export const contactsModel: TModel<TContact> = {
  name: 'contacts',
  table: 'Contacts',
  key: ['id'],
  required: ['id', 'name', 'number', 'companyId'],
  optional: ['profilePicUrl', 'createdAt', 'updatedAt', 'email', 'isGroup', 'whatsappId', 'disableBot'],
  batch: 2000,
  restore: async (db, state) => {
    await restoreOwned('contacts', 'contacts')(db, state);
    const numbers = takenOf(state, 'contact number');
    for (const r of await rowsOf<{ id: number; c: number; n: string }>(
      db,
      'select id, company_id as c, number as n from contacts',
    )) {
      numbers.add(numberKey(Number(r.c), r.n));
    }
    // the aliases: contacts skipped as duplicates point at the kept one (recomputed from the source later)
  },
  map: (r, { state }) => {
    const companyId = idOrNull(r.companyId);
    if (companyId === null || !idsOf(state, 'companies').has(companyId))
      return { skip: 'contact of no imported company' };
    const id = idOrNull(r.id)!;
    const number = cut(r.number, 64).trim();
    if (!number) return { skip: 'contact without a number' };
    const numbers = takenOf(state, 'contact number');
    const key = numberKey(companyId, number);
    if (numbers.has(key)) {
      state.contactAlias.set(id, -1);
      return { skip: 'same number twice in a company: tickets and messages go to the first contact' };
    }
    numbers.add(key);
    idsOf(state, 'contacts').add(id);
    ownersOf(state, 'contacts').set(id, companyId);
    const adjusted: string[] = [];
    const name = nameOr(r.name, 200, number);
    if (name === number && cut(r.name, 200).trim() !== number) adjusted.push('empty name: the number is shown');
    let whatsappId = idOrNull(r.whatsappId);
    if (whatsappId !== null && ownersOf(state, 'connections').get(whatsappId) !== companyId) whatsappId = null;

    return {
      adjusted,
      row: {
        id,
        companyId,
        name,
        number,
        email: cut(r.email, 254).trim(),
        profilePicUrl: cut(r.profilePicUrl, 2000),
        isGroup: bool(r.isGroup, false),
        disableBot: bool(r.disableBot, false),
        whatsappId,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, contacts, rows);
    return undefined;
  },
};

/**
 * The duplicate contacts' aliases, resolved once contacts are in: each skipped duplicate → the kept contact of
 * the same company and number (read from the source, so a resumed run finds them as well).
 */
export const resolveContactAliases = async (
  query: (text: string) => Promise<TSourceRow[]>,
  state: Parameters<NonNullable<TModel['restore']>>[1],
) => {
  const rows = await query(`
    select d.id as dup, (select min(k.id) from "Contacts" k where k."companyId" = d."companyId" and trim(k.number) = trim(d.number)) as kept
    from "Contacts" d
    where exists (select 1 from "Contacts" o where o."companyId" = d."companyId" and trim(o.number) = trim(d.number) and o.id < d.id)`);
  const imported = idsOf(state, 'contacts');
  for (const r of rows) {
    const kept = idOrNull(r.kept);
    if (kept !== null && imported.has(kept)) state.contactAlias.set(Number(r.dup), kept);
  }
};

type TField = typeof contactCustomFields.$inferInsert;
export const customFieldsModel: TModel<TField> = {
  name: 'contact custom fields',
  table: 'ContactCustomFields',
  key: ['id'],
  required: ['id', 'name', 'value', 'contactId'],
  optional: ['createdAt', 'updatedAt'],
  batch: 2000,
  map: (r, { state }) => {
    const contactId = idOrNull(r.contactId);
    const companyId = contactId === null ? undefined : ownersOf(state, 'contacts').get(contactId);
    if (companyId === undefined) return { skip: 'field of no imported contact' };

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId,
        contactId: contactId!,
        name: nameOr(r.name, 100, 'field'),
        value: cut(r.value, 100_000),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, contactCustomFields, rows);
    return undefined;
  },
};

type TTag = typeof tags.$inferInsert;
export const tagsModel: TModel<TTag> = {
  name: 'tags',
  table: 'Tags',
  key: ['id'],
  required: ['id', 'name', 'companyId'],
  optional: ['color', 'createdAt', 'updatedAt', 'kanban'],
  restore: async (db, state) => {
    await restoreOwned('tags', 'tags')(db, state);
    for (const r of await rowsOf<{ c: number; k: string }>(db, 'select company_id as c, lower(name) as k from tags')) {
      takenOf(state, 'tag').add(`${r.c}:${r.k}`);
    }
  },
  map: (r, { state }) => {
    const companyId = idOrNull(r.companyId);
    if (companyId === null || !idsOf(state, 'companies').has(companyId)) return { skip: 'tag of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(takenOf(state, 'tag'), r.name, id, 50, `Tag ${id}`, `${companyId}:`);
    const color = colour(r.color, '#A4CCCC');
    if (color.fixed) adjusted.push('colour not hex: default used');
    idsOf(state, 'tags').add(id);
    ownersOf(state, 'tags').set(id, companyId);

    return {
      adjusted,
      row: { id, companyId, name, color: color.value, kanban: int(r.kanban, 0) === 1 ? 1 : 0, ...stamps(r) },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, tags, rows);
    return undefined;
  },
};
