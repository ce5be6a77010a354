import { announceItem, announceItemsReload, toItem } from './contact-lists.events';
import {
  campaignsOpen,
  events,
  rooms,
  type TContactList,
  type TContactListBody,
  type TContactListEvent,
  type TContactListImportError,
  type TContactListImportResult,
  type TContactListItemBody,
  type TContactListItemQuery,
  type TContactListItemUpdateBody,
  type TListQuery,
  ZContactListItemFields,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import {
  allContactLists,
  campaignsSetting,
  deleteContactListRow,
  deleteItemRow,
  findContactList,
  findItem,
  insertContactList,
  insertItem,
  itemNumberTaken,
  listNameTaken,
  lockContactList,
  pageContactLists,
  pageItems,
  renameContactList,
  resetValidity,
  type TContactListItemRow,
  touchContactList,
  updateItemRow,
  upsertItems,
} from './contact-lists.repo';
import type { TSheetRow } from './contact-lists.sheet';
import { requestValidityCheck } from './contact-lists.validity';
import { isUniqueViolation } from '../../db/pg-errors';

/** rows written per statement of an import */
const IMPORT_BATCH = 1000;

type TListRow = NonNullable<Awaited<ReturnType<typeof findContactList>>>;

const toList = (row: TListRow): TContactList => ({
  id: row.id,
  name: row.name,
  companyId: row.companyId,
  contactsCount: Number(row.contactsCount),
  validCount: Number(row.validCount),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * Contact lists belong to campaigns: besides the route's admin role and plan flag `useCampaigns`, the
 * company's `campaignsEnabled` setting must not be off (issue 12 §5: both checked on the server).
 */
export const assertCampaignsEnabled = async (ctx: TAppContext, auth: TAuth) => {
  // the plan's useCampaigns is the route declaration's; together they are `campaignsOpen` (shared)
  if (!campaignsOpen(true, await campaignsSetting(ctx.db, auth.companyId))) {
    throw new AppError('ERR_PLAN_FEATURE_DISABLED', 'Campaigns are disabled for this company');
  }
};

// ---- realtime (to the company's admins: only they manage lists, and items carry customers' numbers)

const announceList = (ctx: TAppContext, companyId: number, payload: TContactListEvent) =>
  ctx.realtime.to(rooms.admins(companyId), events.contactList(companyId), payload);

/** the list's counts changed: its row again to the lists screen */
const announceListCounts = async (ctx: TAppContext, companyId: number, id: number) => {
  const row = await findContactList(ctx.db, companyId, id);
  if (row) announceList(ctx, companyId, { action: 'update', record: toList(row) });
};

// ---- lists

const loadList = async (db: TDbOrTx, companyId: number, id: number) => {
  const row = await findContactList(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');

  return toList(row);
};

const duplicatedList = () => new AppError('ERR_DUPLICATED_CONTACT_LIST', 'A contact list with this name exists');

export const getContactListPage = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageContactLists(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const page = pageAnswer(rows.map(toList), total, query.pageNumber);

  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

export const listAllContactLists = async (ctx: TAppContext, auth: TAuth) =>
  (await allContactLists(ctx.db, auth.companyId)).map(toList);

export const getContactList = (ctx: TAppContext, auth: TAuth, id: number) => loadList(ctx.db, auth.companyId, id);

export const createContactList = async (ctx: TAppContext, auth: TAuth, body: TContactListBody) => {
  const companyId = auth.companyId;
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      if (await listNameTaken(tx, companyId, body.name)) throw duplicatedList();

      return (await insertContactList(tx, companyId, body.name)).id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicatedList();
    throw err;
  }
  const record = await loadList(ctx.db, companyId, id);
  announceList(ctx, companyId, { action: 'create', record });

  return record;
};

export const updateContactList = async (ctx: TAppContext, auth: TAuth, id: number, body: TContactListBody) => {
  const companyId = auth.companyId;
  await loadList(ctx.db, companyId, id);
  try {
    await ctx.db.transaction(async (tx) => {
      if (await listNameTaken(tx, companyId, body.name, id)) throw duplicatedList();
      await renameContactList(tx, companyId, id, body.name);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicatedList();
    throw err;
  }
  const record = await loadList(ctx.db, companyId, id);
  announceList(ctx, companyId, { action: 'update', record });

  return record;
};

export const deleteContactList = async (ctx: TAppContext, auth: TAuth, id: number) => {
  if (!(await deleteContactListRow(ctx.db, auth.companyId, id))) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  announceList(ctx, auth.companyId, { action: 'delete', id });
};

// ---- import

type TValidRow = { name: string; number: string; email: string };

/** the rows that pass the item rules, the last of each number winning, and the errors of the others */
const validateRows = (rows: TSheetRow[]) => {
  const errors: TContactListImportError[] = [];
  const byNumber = new Map<string, TValidRow>();
  let repeated = 0;
  for (const row of rows) {
    const parsed = ZContactListItemFields.safeParse({ name: row.name, number: row.number, email: row.email });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path[0];
      errors.push({
        row: row.row,
        field: field === 'name' || field === 'number' || field === 'email' ? field : undefined,
        reason: issue.message,
      });
      continue;
    }
    if (byNumber.has(parsed.data.number)) {
      repeated += 1;
      byNumber.delete(parsed.data.number);
    }
    byNumber.set(parsed.data.number, parsed.data);
  }

  return { valid: [...byNumber.values()], errors, repeated };
};

/** `company-{id}-ContactListItem` import progress, to the importing user (not a change: no announce) */
const importProgress = (ctx: TAppContext, auth: TAuth, contactListId: number) => (done: number, total: number) => {
  ctx.realtime.io
    .to(rooms.user(auth.companyId, auth.userId))
    .emit(events.contactListItem(auth.companyId), { action: 'import-progress', contactListId, done, total });
};

/**
 * Imports a sheet's rows into the list, all or nothing: the valid rows are written in batches inside one
 * transaction (a number the list holds is updated, never duplicated), the invalid ones come back with their
 * row number and reason. The validity check of the new numbers follows in the background.
 */
export const importContactList = async (
  ctx: TAppContext,
  auth: TAuth,
  contactListId: number,
  rows: TSheetRow[],
): Promise<TContactListImportResult> => {
  const companyId = auth.companyId;
  await loadList(ctx.db, companyId, contactListId);
  const { valid, errors, repeated } = validateRows(rows);
  const progress = importProgress(ctx, auth, contactListId);
  progress(0, valid.length);
  const counts = await ctx.db.transaction(async (tx) => {
    if (!(await lockContactList(tx, companyId, contactListId))) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
    let created = 0;
    let updated = 0;
    for (let i = 0; i < valid.length; i += IMPORT_BATCH) {
      const batch = valid.slice(i, i + IMPORT_BATCH);
      const written = await upsertItems(tx, companyId, contactListId, batch);
      created += written.created;
      updated += written.updated;
      progress(Math.min(i + IMPORT_BATCH, valid.length), valid.length);
    }
    await touchContactList(tx, companyId, contactListId);

    return { created, updated };
  });
  await announceItemsReload(ctx, companyId, contactListId);
  await announceListCounts(ctx, companyId, contactListId);
  if (counts.created) void requestValidityCheck(ctx, companyId);

  return {
    contactListId,
    total: rows.length,
    created: counts.created,
    updated: counts.updated + repeated,
    errors,
  };
};

/** "check again": the list's items (or one of them) become unchecked and are checked in the background */
export const recheckContactList = async (ctx: TAppContext, auth: TAuth, contactListId: number, itemId?: number) => {
  const companyId = auth.companyId;
  await loadList(ctx.db, companyId, contactListId);
  await resetValidity(ctx.db, companyId, contactListId, itemId ? [itemId] : undefined);
  await announceItemsReload(ctx, companyId, contactListId);
  void requestValidityCheck(ctx, companyId);

  return loadList(ctx.db, companyId, contactListId);
};

// ---- items

const loadItem = async (db: TDbOrTx, companyId: number, id: number) => {
  const row = await findItem(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');

  return row;
};

const duplicatedItem = () => new AppError('ERR_DUPLICATED_CONTACT', 'This number is already in the list');

export const getItemPage = async (ctx: TAppContext, auth: TAuth, query: TContactListItemQuery) => {
  await loadList(ctx.db, auth.companyId, query.contactListId);
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageItems(
    ctx.db,
    auth.companyId,
    query.contactListId,
    query.searchParam,
    limit,
    offset,
  );
  const page = pageAnswer(rows.map(toItem), total, query.pageNumber);

  return { contacts: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getItem = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toItem(await loadItem(ctx.db, auth.companyId, id));

export const createItem = async (ctx: TAppContext, auth: TAuth, body: TContactListItemBody) => {
  const companyId = auth.companyId;
  await loadList(ctx.db, companyId, body.contactListId);
  let row: TContactListItemRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      if (await itemNumberTaken(tx, body.contactListId, body.number)) throw duplicatedItem();

      return insertItem(tx, {
        companyId,
        contactListId: body.contactListId,
        name: body.name,
        number: body.number,
        email: body.email,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicatedItem();
    throw err;
  }
  const record = toItem(row);
  announceItem(ctx, companyId, { action: 'create', record });
  await announceListCounts(ctx, companyId, record.contactListId);
  void requestValidityCheck(ctx, companyId);

  return record;
};

export const updateItem = async (ctx: TAppContext, auth: TAuth, id: number, body: TContactListItemUpdateBody) => {
  const companyId = auth.companyId;
  const current = await loadItem(ctx.db, companyId, id);
  const numberChanged = body.number !== undefined && body.number !== current.number;
  let row: TContactListItemRow | undefined;
  try {
    row = await ctx.db.transaction(async (tx) => {
      if (numberChanged && (await itemNumberTaken(tx, current.contactListId, body.number as string, id))) {
        throw duplicatedItem();
      }

      return updateItemRow(tx, companyId, id, {
        name: body.name,
        number: numberChanged ? body.number : undefined,
        email: body.email,
        // a new number is checked again
        isWhatsappValid: numberChanged ? null : undefined,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicatedItem();
    throw err;
  }
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  const record = toItem(row);
  announceItem(ctx, companyId, { action: 'update', record });
  if (numberChanged) {
    await announceListCounts(ctx, companyId, record.contactListId);
    void requestValidityCheck(ctx, companyId);
  }

  return record;
};

export const deleteItem = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const companyId = auth.companyId;
  const gone = await deleteItemRow(ctx.db, companyId, id);
  if (!gone) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  announceItem(ctx, companyId, { action: 'delete', id, contactListId: gone.contactListId });
  await announceListCounts(ctx, companyId, gone.contactListId);
};
