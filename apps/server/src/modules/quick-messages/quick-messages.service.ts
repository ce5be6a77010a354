import {
  events,
  type TListQuery,
  type TQuickMessage,
  type TQuickMessageBody,
  type TQuickMessageUpdateBody,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { lockCompany } from '../companies/companies.repo';
import {
  deleteQuickMessageRow,
  findQuickMessage,
  insertQuickMessage,
  listActiveVisible,
  pageQuickMessages,
  shortcodeTaken,
  type TQuickMessageRow,
  updateQuickMessageRow,
} from './quick-messages.repo';

const toQuickMessage = (row: TQuickMessageRow): TQuickMessage => ({
  id: row.id,
  shortcode: row.shortcode,
  message: row.message,
  geral: row.geral,
  status: row.status,
  isMedia: Boolean(row.mediaPath),
  mediaPath: row.mediaPath,
  mediaName: row.mediaName,
  userId: row.userId,
});

const canSee = (auth: TAuth, row: TQuickMessageRow) => auth.isAdmin || row.geral || row.userId === auth.userId;

/** a quick message the caller may see; another's private one answers like a missing one */
const loadVisible = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await findQuickMessage(ctx.db, auth.companyId, id);
  if (!row || !canSee(auth, row)) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');

  return row;
};

/** only its author or an admin changes it */
const loadEditable = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await loadVisible(ctx, auth, id);
  if (!auth.isAdmin && row.userId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');

  return row;
};

/** shared ones to the whole company, private ones to their author only */
const announce = (ctx: TAppContext, companyId: number, row: TQuickMessageRow, payload: unknown) => {
  const event = events.quickMessage(companyId);
  if (row.geral) ctx.realtime.toCompany(companyId, event, payload);
  else if (row.userId) ctx.realtime.toUser(companyId, row.userId, event, payload);
};

/** the composer's list: active ones shared with the company or the caller's own */
export const listForComposer = async (ctx: TAppContext, auth: TAuth) =>
  (await listActiveVisible(ctx.db, auth.companyId, auth.userId)).map(toQuickMessage);

export const getQuickMessagePage = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const viewer = { userId: auth.userId, all: auth.isAdmin };
  const { rows, total } = await pageQuickMessages(ctx.db, auth.companyId, viewer, query.searchParam, limit, offset);
  const page = pageAnswer(rows.map(toQuickMessage), total, query.pageNumber);

  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getQuickMessage = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toQuickMessage(await loadVisible(ctx, auth, id));

const duplicated = () => new AppError('ERR_DUPLICATED_SHORTCODE', 'This shortcode is in use');

export const createQuickMessage = async (ctx: TAppContext, auth: TAuth, body: TQuickMessageBody) => {
  const companyId = auth.companyId;
  const row = await ctx.db.transaction(async (tx) => {
    // the company row lock serialises the shortcode check
    await lockCompany(tx, companyId);
    if (await shortcodeTaken(tx, companyId, body.shortcode)) throw duplicated();

    return insertQuickMessage(tx, { companyId, userId: auth.userId, ...body });
  });
  const record = toQuickMessage(row);
  announce(ctx, companyId, row, { action: 'create', record });

  return record;
};

export const updateQuickMessage = async (ctx: TAppContext, auth: TAuth, id: number, body: TQuickMessageUpdateBody) => {
  const companyId = auth.companyId;
  const before = await loadEditable(ctx, auth, id);
  const row = await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    if (body.shortcode && (await shortcodeTaken(tx, companyId, body.shortcode, id))) throw duplicated();

    return updateQuickMessageRow(tx, companyId, id, body);
  });
  if (!row) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  const record = toQuickMessage(row);
  // it left the others' view when it stopped being shared
  if (before.geral && !row.geral) announce(ctx, companyId, before, { action: 'delete', id });
  announce(ctx, companyId, row, { action: 'update', record });

  return record;
};

export const deleteQuickMessage = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await loadEditable(ctx, auth, id);
  await deleteQuickMessageRow(ctx.db, auth.companyId, id);
  announce(ctx, auth.companyId, row, { action: 'delete', id });
};
