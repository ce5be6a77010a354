import {
  events,
  FILE_LIST_LIMITS,
  rooms,
  type TFileList,
  type TFileListBody,
  type TFileListEvent,
  type TListQuery,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { lockCompany } from '../companies/companies.repo';
import { removeMediaFile, resolveType, storeMediaFile } from '../messages/media';
import { mediaUrlOf } from '../messages/message-dto';
import {
  allFileLists,
  deleteFileListRow,
  deleteOptionsExcept,
  fileListNameTaken,
  findFileList,
  insertFileList,
  insertOptions,
  lockFileList,
  optionsOfLists,
  pageFileLists,
  renameOption,
  setOptionFile,
  type TFileListRow,
  type TFileOptionRow,
  touchFileList,
  updateFileListRow,
} from './files.repo';

/** the API's file list: the ancestor's fields, its options with the stored file's public URL */
const toFileList = (_ctx: TAppContext, row: TFileListRow, options: TFileOptionRow[]): TFileList => ({
  id: row.id,
  companyId: row.companyId,
  name: row.name,
  message: row.message,
  options: options
    .filter((o) => o.fileId === row.id)
    .map((o) => ({
      id: o.id,
      fileId: o.fileId,
      name: o.name,
      path: o.path,
      mediaType: o.mediaType,
      url: mediaUrlOf(o.path || null),
    })),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const withOptions = async (ctx: TAppContext, companyId: number, rows: TFileListRow[]) => {
  const options = await optionsOfLists(
    ctx.db,
    companyId,
    rows.map((r) => r.id),
  );

  return rows.map((row) => toFileList(ctx, row, options));
};

/** file lists are an admin screen: its events go to the company's admins */
const announce = (ctx: TAppContext, companyId: number, payload: TFileListEvent) =>
  ctx.realtime.to(rooms.admins(companyId), events.file(companyId), payload);

const notFound = () => new AppError('ERR_NO_FILE_LIST_FOUND');
const duplicated = () =>
  new AppError('ERR_DUPLICATED_FILE_LIST', 'A file list with this name exists', [
    { path: 'name', message: 'duplicated' },
  ]);

const load = async (ctx: TAppContext, companyId: number, id: number) => {
  const row = await findFileList(ctx.db, companyId, id);
  if (!row) throw notFound();

  return (await withOptions(ctx, companyId, [row]))[0];
};

/** GET /files: `{files, count, hasMore}` (the ancestor's `companyId` parameter is ignored: the caller's company) */
export const getFileListPage = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageFileLists(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const page = pageAnswer(await withOptions(ctx, auth.companyId, rows), total, query.pageNumber);

  return { files: page.rows, count: page.count, hasMore: page.hasMore };
};

/** GET /files/list: every list of the company (the campaign dialog's select) */
export const listFileLists = async (ctx: TAppContext, auth: TAuth, searchParam: string) =>
  withOptions(ctx, auth.companyId, await allFileLists(ctx.db, auth.companyId, searchParam));

export const getFileList = (ctx: TAppContext, auth: TAuth, id: number) => load(ctx, auth.companyId, id);

export const createFileList = async (ctx: TAppContext, auth: TAuth, body: TFileListBody) => {
  const companyId = auth.companyId;
  const id = await ctx.db.transaction(async (tx) => {
    // the company row lock serialises the name check
    await lockCompany(tx, companyId);
    if (await fileListNameTaken(tx, companyId, body.name)) throw duplicated();
    const row = await insertFileList(tx, { companyId, name: body.name, message: body.message });
    await insertOptions(
      tx,
      companyId,
      row.id,
      (body.options ?? []).map((o) => o.name),
    );

    return row.id;
  });
  const fileList = await load(ctx, companyId, id);
  announce(ctx, companyId, { action: 'create', fileList, files: fileList });

  return fileList;
};

/**
 * PUT /files/:id: name and message; with `options`, the list's rows become those sent: a row with an id of
 * this list is renamed, one without an id is added, the rows left out are removed and their stored files
 * deleted once the change is committed. An id of another list is refused (400) and nothing changes.
 */
export const updateFileList = async (ctx: TAppContext, auth: TAuth, id: number, body: TFileListBody) => {
  const companyId = auth.companyId;
  const removed = await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    const current = await lockFileList(tx, companyId, id);
    if (!current) throw notFound();
    if (await fileListNameTaken(tx, companyId, body.name, id)) throw duplicated();
    await updateFileListRow(tx, companyId, id, { name: body.name, message: body.message });
    if (!body.options) return [];
    const existing = new Set((await optionsOfLists(tx, companyId, [id])).map((o) => o.id));
    const kept: number[] = [];
    for (const [i, option] of body.options.entries()) {
      if (option.id === undefined) continue;
      if (!existing.has(option.id)) {
        throw new AppError('ERR_VALIDATION', 'Unknown file of this list', [
          { path: `options.${i}.id`, message: 'invalid' },
        ]);
      }
      kept.push(option.id);
      await renameOption(tx, companyId, id, option.id, option.name);
    }
    const gone = await deleteOptionsExcept(tx, companyId, id, kept);
    await insertOptions(
      tx,
      companyId,
      id,
      body.options.filter((o) => o.id === undefined).map((o) => o.name),
    );

    return gone;
  });
  for (const path of removed) await removeMediaFile(ctx.config, path);
  const fileList = await load(ctx, companyId, id);
  announce(ctx, companyId, { action: 'update', fileList, files: fileList });

  return fileList;
};

export const deleteFileList = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const paths = await deleteFileListRow(ctx.db, auth.companyId, id);
  if (!paths) throw notFound();
  for (const path of paths) await removeMediaFile(ctx.config, path);
  announce(ctx, auth.companyId, { action: 'delete', fileId: id });
};

/** one file of POST /files/uploadList/:id, with the option row it is for and an optional new name */
export type TListUpload = { data: Buffer; fileName: string; optionId: number | undefined; name?: string };

/**
 * POST /files/uploadList/:id: each file is typed by its content (the client's type is ignored) and held to
 * WhatsApp's limit for its kind (413 over); all are stored, then one transaction points the options at them.
 * A failure removes what this request stored and changes nothing; the files the options held before are
 * removed once the change is committed. The list's owner is checked before the body is read.
 */
export const uploadListFiles = async (
  ctx: TAppContext,
  auth: TAuth,
  id: number,
  read: () => Promise<TListUpload[]>,
) => {
  const companyId = auth.companyId;
  if (!(await findFileList(ctx.db, companyId, id))) throw notFound();
  const uploads = await read();
  if (uploads.length === 0) {
    throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'files', message: 'required' }]);
  }
  const typed = uploads.map((upload, i) => {
    if (upload.optionId === undefined) {
      throw new AppError('ERR_VALIDATION', 'Each file needs the id of its row', [
        { path: `id.${i}`, message: 'required' },
      ]);
    }
    if (upload.data.length === 0) {
      throw new AppError('ERR_VALIDATION', 'Empty file', [{ path: `files.${i}`, message: 'invalid' }]);
    }
    const type = resolveType(upload.data, upload.fileName);
    if (upload.data.length > FILE_LIST_LIMITS[type.kind]) {
      throw new AppError('ERR_PAYLOAD_TOO_LARGE', `The file is too large for ${type.kind}`, [
        { path: `files.${i}`, message: 'tooLarge' },
      ]);
    }

    return { ...upload, optionId: upload.optionId, type };
  });
  const stored: string[] = [];
  let replaced: string[];
  try {
    for (const upload of typed) stored.push(await storeMediaFile(ctx.config, upload.data, upload.type.ext));
    replaced = await ctx.db.transaction(async (tx) => {
      // deleted while its files were being read
      if (!(await lockFileList(tx, companyId, id))) throw notFound();
      const before = new Map((await optionsOfLists(tx, companyId, [id])).map((o) => [o.id, o.path]));
      const previous: string[] = [];
      for (const [i, upload] of typed.entries()) {
        if (!before.has(upload.optionId)) {
          throw new AppError('ERR_VALIDATION', 'Unknown file of this list', [{ path: `id.${i}`, message: 'invalid' }]);
        }
        previous.push(before.get(upload.optionId) ?? '');
        before.set(upload.optionId, stored[i]);
        const name = upload.name?.trim().slice(0, 255);
        await setOptionFile(tx, companyId, id, upload.optionId, {
          path: stored[i],
          mediaType: upload.type.mime,
          ...(name ? { name } : {}),
        });
      }
      await touchFileList(tx, companyId, id);

      // a file replaced within this very request is one of ours: it goes too
      return previous.filter((p) => p);
    });
  } catch (err) {
    for (const name of stored) await removeMediaFile(ctx.config, name);
    throw err;
  }
  for (const name of replaced) await removeMediaFile(ctx.config, name);
  const fileList = await load(ctx, companyId, id);
  announce(ctx, companyId, { action: 'update', fileList, files: fileList });

  return fileList;
};
