import {
  events,
  rooms,
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
import { cleanFileName, MEDIA_LIMITS, removeMediaFile, replaceMediaFile, resolveType } from '../messages/media';
import { mediaUrlOf } from '../messages/message-dto';
import {
  deleteQuickMessageRow,
  findQuickMessage,
  insertQuickMessage,
  listActiveVisible,
  lockQuickMessage,
  pageQuickMessages,
  setQuickMessageMedia,
  shortcodeTaken,
  type TQuickMessageRow,
  updateQuickMessageRow,
} from './quick-messages.repo';

/** the API's quick message: `mediaPath` is the attached file's public URL (as the ancestor's getter built it) */
const toQuickMessage = (_ctx: TAppContext, row: TQuickMessageRow): TQuickMessage => ({
  id: row.id,
  shortcode: row.shortcode,
  message: row.message,
  geral: row.geral,
  status: row.status,
  isMedia: Boolean(row.mediaPath),
  mediaPath: mediaUrlOf(row.mediaPath),
  mediaName: row.mediaPath ? row.mediaName : null,
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

/** shared ones to the whole company, private ones to their author and the admins (whose list shows them) */
const announce = (ctx: TAppContext, companyId: number, row: TQuickMessageRow, payload: unknown) => {
  const event = events.quickMessage(companyId);
  if (row.geral) ctx.realtime.toCompany(companyId, event, payload);
  else {
    const author = row.userId ? [rooms.user(companyId, row.userId)] : [];
    ctx.realtime.to([...author, rooms.admins(companyId)], event, payload);
  }
};

/** the composer's list: active ones shared with the company or the caller's own */
export const listForComposer = async (ctx: TAppContext, auth: TAuth) =>
  (await listActiveVisible(ctx.db, auth.companyId, auth.userId)).map((row) => toQuickMessage(ctx, row));

export const getQuickMessagePage = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const viewer = { userId: auth.userId, all: auth.isAdmin };
  const { rows, total } = await pageQuickMessages(ctx.db, auth.companyId, viewer, query.searchParam, limit, offset);
  const page = pageAnswer(
    rows.map((row) => toQuickMessage(ctx, row)),
    total,
    query.pageNumber,
  );

  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getQuickMessage = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toQuickMessage(ctx, await loadVisible(ctx, auth, id));

const duplicated = () => new AppError('ERR_DUPLICATED_SHORTCODE', 'This shortcode is in use');

export const createQuickMessage = async (ctx: TAppContext, auth: TAuth, body: TQuickMessageBody) => {
  const companyId = auth.companyId;
  const row = await ctx.db.transaction(async (tx) => {
    // the company row lock serialises the shortcode check
    await lockCompany(tx, companyId);
    if (await shortcodeTaken(tx, companyId, body.shortcode)) throw duplicated();

    return insertQuickMessage(tx, { companyId, userId: auth.userId, ...body });
  });
  const record = toQuickMessage(ctx, row);
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
  const record = toQuickMessage(ctx, row);
  // it left the others' view when it stopped being shared
  if (before.geral && !row.geral) announce(ctx, companyId, before, { action: 'delete', id });
  announce(ctx, companyId, row, { action: 'update', record });

  return record;
};

export const deleteQuickMessage = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await loadEditable(ctx, auth, id);
  const deleted = await deleteQuickMessageRow(ctx.db, auth.companyId, id);
  if (!deleted) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  await removeMediaFile(ctx.config, deleted.mediaPath);
  announce(ctx, auth.companyId, row, { action: 'delete', id });
};

/** a file sent to POST /quick-messages/:id/media-upload */
export type TQuickMessageUpload = { data: Buffer; fileName: string };

/** the name the file is shown under: the sender's name, without a path, with its spaces as underscores (spec 2 §5) */
export const quickMediaName = (fileName: string, ext: string) =>
  cleanFileName(fileName, `file.${ext}`).replace(/ /g, '_');

/**
 * Attaches a file: typed by its content and held to the size limit of its kind (what the composer can send),
 * stored under a random name with a safe extension; an earlier file is removed once the row points at the new one.
 * The caller's right to edit it is checked before the body is read.
 */
export const attachQuickMessageMedia = async (
  ctx: TAppContext,
  auth: TAuth,
  id: number,
  read: () => Promise<TQuickMessageUpload | undefined>,
) => {
  const companyId = auth.companyId;
  await loadEditable(ctx, auth, id);
  const upload = await read();
  if (!upload) throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'file', message: 'required' }]);
  if (upload.data.length === 0)
    throw new AppError('ERR_VALIDATION', 'Empty file', [{ path: 'file', message: 'invalid' }]);
  const type = resolveType(upload.data, upload.fileName);
  if (upload.data.length > MEDIA_LIMITS[type.kind]) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', `The file is too large for ${type.kind}`, [
      { path: 'file', message: 'tooLarge' },
    ]);
  }
  const row = await replaceMediaFile(ctx.config, upload.data, type.ext, (stored) =>
    ctx.db.transaction(async (tx) => {
      const current = await lockQuickMessage(tx, companyId, id);
      // deleted while its file was being read
      if (!current) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
      const media = { mediaPath: stored, mediaName: quickMediaName(upload.fileName, type.ext) };
      const value = await setQuickMessageMedia(tx, companyId, id, media);
      if (!value) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');

      return { value, previous: current.mediaPath };
    }),
  );
  const record = toQuickMessage(ctx, row);
  announce(ctx, companyId, row, { action: 'update', record });

  return record;
};

/** DELETE /quick-messages/:id/media-upload: the fields cleared, then the file removed */
export const detachQuickMessageMedia = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const companyId = auth.companyId;
  await loadEditable(ctx, auth, id);
  const changed = await ctx.db.transaction(async (tx) => {
    const current = await lockQuickMessage(tx, companyId, id);
    if (!current) return undefined;
    const row =
      current.mediaPath || current.mediaName
        ? await setQuickMessageMedia(tx, companyId, id, { mediaPath: null, mediaName: null })
        : current;

    return { row, earlier: current.mediaPath };
  });
  if (!changed?.row) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  await removeMediaFile(ctx.config, changed.earlier);
  const record = toQuickMessage(ctx, changed.row);
  announce(ctx, companyId, changed.row, { action: 'update', record });

  return record;
};
