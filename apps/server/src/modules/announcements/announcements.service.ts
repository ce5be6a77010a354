import {
  events,
  rooms,
  type TAnnouncement,
  type TAnnouncementBody,
  type TAnnouncementEvent,
  type TAnnouncementPage,
  type TAnnouncementUpdateBody,
  type TListQuery,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { cleanFileName, detectType, removeMediaFile, replaceMediaFile } from '../messages/media';
import {
  deleteAnnouncementRow,
  findAnnouncement,
  insertAnnouncement,
  listCompanyIds,
  lockAnnouncement,
  pageAnnouncements,
  type TAnnouncementReader,
  type TAnnouncementRow,
  updateAnnouncementRow,
} from './announcements.repo';

/**
 * Announcements: written by the super user for every company (`companyId` null), read by everyone signed in.
 * The super user reads them all (the management screen); a company's users read only the active ones (the top
 * bar's popover, and the ancestor's popover, which reads the same `GET /announcements`).
 *
 * Realtime: `company-announcement` (the ancestor's event name) goes after commit to each company's main room,
 * never to every socket. Company sockets hear an active announcement as `{action, record}` and an inactive or
 * deleted one as `{action: 'delete', id}`; super users' sockets (room `super-users`, left out of the company
 * rooms' emit) hear every change with its record, since their screen lists the inactive ones too.
 */

const toAnnouncement = (row: TAnnouncementRow): TAnnouncement => ({
  id: row.id,
  title: row.title,
  text: row.text,
  priority: row.priority,
  status: row.status,
  mediaPath: row.mediaPath,
  mediaName: row.mediaName,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const readerOf = (auth: TAuth): TAnnouncementReader =>
  auth.isSuper ? { all: true } : { all: false, companyId: auth.companyId };
/** the popover's reader: active announcements only, also for the super user */
const activeReaderOf = (auth: TAuth): TAnnouncementReader => ({ all: false, companyId: auth.companyId });

const page = async (ctx: TAppContext, reader: TAnnouncementReader, query: TListQuery): Promise<TAnnouncementPage> => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageAnnouncements(ctx.db, reader, query.searchParam, limit, offset);
  const answer = pageAnswer(rows.map(toAnnouncement), total, query.pageNumber);

  return { records: answer.rows, count: answer.count, hasMore: answer.hasMore };
};

/** `GET /announcements`: every announcement for the super user, the active ones for anyone else */
export const listAnnouncements = (ctx: TAppContext, auth: TAuth, query: TListQuery) => page(ctx, readerOf(auth), query);

/** `GET /announcements/for-company`: the active ones, whoever asks (Zelo's popover) */
export const listActiveAnnouncements = (ctx: TAppContext, auth: TAuth, query: TListQuery) =>
  page(ctx, activeReaderOf(auth), query);

export const getAnnouncement = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await findAnnouncement(ctx.db, readerOf(auth), id);
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');

  return toAnnouncement(row);
};

const announce = async (ctx: TAppContext, row: TAnnouncementRow, action: 'create' | 'update' | 'delete') => {
  const record = toAnnouncement(row);
  const full: TAnnouncementEvent = action === 'delete' ? { action, id: row.id } : { action, record };
  const forCompanies: TAnnouncementEvent = action !== 'delete' && row.status ? full : { action: 'delete', id: row.id };
  const companyIds = row.companyId ? [row.companyId] : await listCompanyIds(ctx.db);
  ctx.realtime.toCompanies(companyIds, events.announcement(), forCompanies, [rooms.supers()]);
  ctx.realtime.to(rooms.supers(), events.announcement(), full);
};

/** what announce throws must not turn a stored change into an error answer */
const announceQuietly = (ctx: TAppContext, row: TAnnouncementRow, action: 'create' | 'update' | 'delete') =>
  announce(ctx, row, action).catch((err) => ctx.log.error({ err, announcementId: row.id }, 'announcement event'));

export const createAnnouncement = async (ctx: TAppContext, body: TAnnouncementBody) => {
  const row = await insertAnnouncement(ctx.db, { ...body, companyId: null });
  await announceQuietly(ctx, row, 'create');

  return toAnnouncement(row);
};

const loadForWrite = async (ctx: TAppContext, id: number) => {
  const row = await findAnnouncement(ctx.db, { all: true }, id);
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');

  return row;
};

export const updateAnnouncement = async (ctx: TAppContext, id: number, body: TAnnouncementUpdateBody) => {
  await loadForWrite(ctx, id);
  const row = await updateAnnouncementRow(ctx.db, id, body);
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  await announceQuietly(ctx, row, 'update');

  return toAnnouncement(row);
};

export const deleteAnnouncement = async (ctx: TAppContext, id: number) => {
  const row = await deleteAnnouncementRow(ctx.db, id);
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  await removeMediaFile(ctx.config, row.mediaPath);
  await announceQuietly(ctx, row, 'delete');
};

/** spec 2 §5: png, jpg or jpeg, read from the file's first bytes (its name and label are not trusted) */
const assertImage = (data: Buffer) => {
  const type = detectType(data);
  if (type.mime !== 'image/png' && type.mime !== 'image/jpeg') {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Only png, jpg or jpeg images are accepted');
  }

  return type;
};

/** sets (or replaces) the announcement's image; the file it replaces is removed once the change is stored */
export const attachAnnouncementImage = async (
  ctx: TAppContext,
  id: number,
  file: { data: Buffer; fileName: string | undefined },
) => {
  await loadForWrite(ctx, id);
  const type = assertImage(file.data);
  const mediaName = cleanFileName(file.fileName, `image.${type.ext}`);
  const row = await replaceMediaFile(ctx.config, file.data, type.ext, (stored) =>
    ctx.db.transaction(async (tx) => {
      const current = await lockAnnouncement(tx, id);
      if (!current) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
      const value = await updateAnnouncementRow(tx, id, { mediaPath: stored, mediaName });

      return { value, previous: current.mediaPath };
    }),
  );
  await announceQuietly(ctx, row, 'update');

  return toAnnouncement(row);
};

/** clears the announcement's image and removes its file */
export const removeAnnouncementImage = async (ctx: TAppContext, id: number) => {
  const { row, previous } = await ctx.db.transaction(async (tx) => {
    const current = await lockAnnouncement(tx, id);
    if (!current) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');

    return {
      row: await updateAnnouncementRow(tx, id, { mediaPath: null, mediaName: null }),
      previous: current.mediaPath,
    };
  });
  await removeMediaFile(ctx.config, previous);
  await announceQuietly(ctx, row, 'update');

  return toAnnouncement(row);
};
