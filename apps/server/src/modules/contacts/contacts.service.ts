import {
  CONTACT_BRIEF_LIMIT,
  events,
  IMPORT_PROGRESS_STEP,
  type TContact,
  type TContactBody,
  type TContactImportResult,
  type TContactListQuery,
  type TContactUpdateBody,
  type TContactUploadRow,
  ZContactBody,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import {
  connectedDefaultConnection,
  deleteContactRow,
  extraInfoOf,
  findContact,
  insertContact,
  listContactsBrief,
  numberTaken,
  pageContacts,
  replaceExtraInfo,
  type TContactPageRow,
  type TContactRow,
  updateContactRow,
} from './contacts.repo';
import { isUniqueViolation } from '../../db/pg-errors';

const withExtraInfo = async (db: TDbOrTx, companyId: number, rows: TContactRow[]): Promise<TContact[]> => {
  const fields = await extraInfoOf(
    db,
    companyId,
    rows.map((r) => r.id),
  );

  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    number: r.number,
    email: r.email,
    profilePicUrl: r.profilePicUrl,
    isGroup: r.isGroup,
    disableBot: r.disableBot,
    extraInfo: fields.filter((f) => f.contactId === r.id).map(({ id, name, value }) => ({ id, name, value })),
    whatsapp: r.whatsappId && r.whatsappName ? { id: r.whatsappId, name: r.whatsappName } : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
};

/** a row of the contacts page as the API answers it */
const pageRowContact = ([
  id,
  name,
  number,
  email,
  profilePicUrl,
  isGroup,
  disableBot,
  extraInfo,
  whatsappId,
  whatsappName,
  createdAt,
  updatedAt,
]: TContactPageRow): TContact => ({
  id,
  name,
  number,
  email,
  profilePicUrl,
  isGroup,
  disableBot,
  extraInfo,
  whatsapp: whatsappId && whatsappName ? { id: whatsappId, name: whatsappName } : null,
  createdAt,
  updatedAt,
});

export const loadContact = async (db: TDbOrTx, companyId: number, id: number) => {
  const row = await findContact(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');

  return (await withExtraInfo(db, companyId, [row]))[0];
};

export const getContactPage = async (ctx: TAppContext, auth: TAuth, query: TContactListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const filter = {
    search: query.searchParam,
    dateStart: query.date ?? query.dateStart,
    dateEnd: query.date ?? query.dateEnd,
    timezone: auth.company.timezone,
  };
  const { rows, total } = await pageContacts(ctx.db, auth.companyId, filter, limit, offset);
  const page = pageAnswer(rows.map(pageRowContact), total, query.pageNumber);

  return { contacts: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getContactsBrief = (ctx: TAppContext, auth: TAuth, search: string) =>
  listContactsBrief(ctx.db, auth.companyId, search, CONTACT_BRIEF_LIMIT);

export const getContact = (ctx: TAppContext, auth: TAuth, id: number) => loadContact(ctx.db, auth.companyId, id);

type TNumberChecker = { session: (connectionId: number) => { checkNumber: (n: string) => Promise<string | null> } };

/** the channel registry when the server has one (it is wired by the channels module) */
const channelsOf = (ctx: TAppContext) => (ctx as { channels?: TNumberChecker }).channels;

/**
 * When the company's default connection is connected, the number must be a WhatsApp account; the
 * channel's canonical form is kept. Without a connected default connection the number is taken as typed.
 */
export const checkContactNumber = async (ctx: TAppContext, companyId: number, number: string) => {
  const channels = channelsOf(ctx);
  if (!channels) return number;
  const connection = await connectedDefaultConnection(ctx.db, companyId);
  if (!connection) return number;
  let canonical: string | null;
  try {
    canonical = await channels.session(connection.id).checkNumber(number);
  } catch (err) {
    ctx.log.warn({ err, companyId }, 'contact number check failed');
    throw new AppError('ERR_WAPP_CHECK_CONTACT', 'Could not verify the number on WhatsApp');
  }
  if (!canonical) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'Not a WhatsApp number');

  return canonical.replace(/\D/g, '') || number;
};

const announce = (ctx: TAppContext, companyId: number, contact: TContact, action: 'create' | 'update') =>
  ctx.realtime.toCompany(companyId, events.contact(companyId), { action, contact });

/** creates one contact with its extra info in one transaction; answers its id */
const insertOne = async (ctx: TAppContext, companyId: number, body: TContactBody) => {
  const number = await checkContactNumber(ctx, companyId, body.number);
  try {
    return await ctx.db.transaction(async (tx) => {
      if (await numberTaken(tx, companyId, number)) throw new AppError('ERR_DUPLICATED_CONTACT');
      const row = await insertContact(tx, {
        companyId,
        name: body.name,
        number,
        email: body.email,
        disableBot: body.disableBot,
      });
      if (body.extraInfo.length) await replaceExtraInfo(tx, companyId, row.id, body.extraInfo);

      return row.id;
    });
  } catch (err) {
    // two creations of one number at once: the unique index decides
    if (isUniqueViolation(err)) throw new AppError('ERR_DUPLICATED_CONTACT');
    throw err;
  }
};

export const createContact = async (ctx: TAppContext, auth: TAuth, body: TContactBody) => {
  const id = await insertOne(ctx, auth.companyId, body);
  const contact = await loadContact(ctx.db, auth.companyId, id);
  announce(ctx, auth.companyId, contact, 'create');

  return contact;
};

export const updateContact = async (ctx: TAppContext, auth: TAuth, id: number, body: TContactUpdateBody) => {
  const companyId = auth.companyId;
  const current = await loadContact(ctx.db, companyId, id);
  const number =
    body.number !== undefined && body.number !== current.number
      ? await checkContactNumber(ctx, companyId, body.number)
      : undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      if (number !== undefined && (await numberTaken(tx, companyId, number, id))) {
        throw new AppError('ERR_DUPLICATED_CONTACT');
      }
      await updateContactRow(tx, companyId, id, {
        name: body.name,
        number,
        email: body.email,
        disableBot: body.disableBot,
      });
      if (body.extraInfo) await replaceExtraInfo(tx, companyId, id, body.extraInfo);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('ERR_DUPLICATED_CONTACT');
    throw err;
  }
  const contact = await loadContact(ctx.db, companyId, id);
  announce(ctx, companyId, contact, 'update');

  return contact;
};

export const toggleDisableBot = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const current = await loadContact(ctx.db, auth.companyId, id);
  await updateContactRow(ctx.db, auth.companyId, id, { disableBot: !current.disableBot });
  const contact = await loadContact(ctx.db, auth.companyId, id);
  announce(ctx, auth.companyId, contact, 'update');

  return contact;
};

export const deleteContact = async (ctx: TAppContext, auth: TAuth, id: number) => {
  if (!(await deleteContactRow(ctx.db, auth.companyId, id))) throw new AppError('ERR_NO_CONTACT_FOUND');
  ctx.realtime.toCompany(auth.companyId, events.contact(auth.companyId), { action: 'delete', contactId: id });
};

/** a spreadsheet row or an upload row, whichever column names it uses */
export type TImportRow = { name: string; number: string; email: string };

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

export const uploadRowToImport = (row: TContactUploadRow): TImportRow => ({
  name: text(row.name ?? row.Nome),
  number: text(row.number ?? row.Telefone),
  email: text(row.email ?? row.Email),
});

/**
 * Creates the rows one by one, in order; each row is written whole or not at all, and a failed row
 * lands in the error bag with the reason. `onProgress` is told after every row.
 */
export const importContacts = async (
  ctx: TAppContext,
  auth: TAuth,
  rows: TImportRow[],
  onProgress?: (done: number, total: number) => void,
): Promise<TContactImportResult> => {
  const result: TContactImportResult = { newContacts: [], errorBag: [] };
  let done = 0;
  for (const row of rows) {
    const contactName = row.name || row.number;
    const parsed = ZContactBody.safeParse({ name: row.name, number: row.number, email: row.email });
    if (!parsed.success) {
      result.errorBag.push({
        contactName,
        error: 'ERR_VALIDATION',
        details: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    } else {
      try {
        const id = await insertOne(ctx, auth.companyId, parsed.data);
        result.newContacts.push({ contactName: parsed.data.name, contactId: id });
        announce(ctx, auth.companyId, await loadContact(ctx.db, auth.companyId, id), 'create');
      } catch (err) {
        if (!(err instanceof AppError)) ctx.log.error({ err }, 'contact import row failed');
        result.errorBag.push({ contactName, error: err instanceof AppError ? err.code : 'ERR_INTERNAL_SERVER_ERROR' });
      }
    }
    done += 1;
    onProgress?.(done, rows.length);
  }

  return result;
};

/** `company-{id}-contact` import progress, to the importing user, every IMPORT_PROGRESS_STEP rows and at the end */
export const importProgress = (ctx: TAppContext, auth: TAuth) => (done: number, total: number) => {
  if (done % IMPORT_PROGRESS_STEP !== 0 && done !== total) return;
  ctx.realtime.toUser(auth.companyId, auth.userId, events.contact(auth.companyId), {
    action: 'import-progress',
    done,
    total,
  });
};
