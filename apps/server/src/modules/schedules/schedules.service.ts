import {
  events,
  type TSchedule,
  type TScheduleBody,
  type TScheduleEvent,
  type TScheduleListQuery,
  type TScheduleStatus,
  type TScheduleUpdateBody,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { momentToDate } from '../../lib/dates';
import { iso, pageAnswer, pageWindow } from '../../lib/paging';
import { cleanFileName, detectType, removeMediaFile, replaceMediaFile } from '../messages/media';
import { mediaUrlOf } from '../messages/message-dto';
import { companyZone, connectionOfCompany, contactOfCompany, findTicketPlain } from '../tickets/tickets.repo';
import {
  deleteScheduleRow,
  findScheduleWithNames,
  findSchedulesWithNames,
  insertSchedule,
  lockSchedule,
  pageSchedules,
  type TScheduleRow,
  type TScheduleWithNames,
  updateScheduleRow,
} from './schedules.repo';

/** the calendar's range answers up to this many rows in one page */
export const RANGE_PAGE_SIZE = 1000;

export const toSchedule = (_ctx: TAppContext, joined: TScheduleWithNames): TSchedule => {
  const row = joined.row;

  return {
    id: row.id,
    body: row.body,
    sendAt: row.sendAt.toISOString(),
    sentAt: iso(row.sentAt),
    status: row.status as TScheduleStatus,
    contactId: row.contactId,
    ticketId: row.ticketId,
    userId: row.userId,
    whatsappId: row.whatsappId,
    mediaPath: mediaUrlOf(row.mediaPath),
    mediaName: row.mediaPath ? row.mediaName : null,
    errorMessage: row.errorMessage,
    contact: joined.contact,
    user: row.userId && joined.userName != null ? { id: row.userId, name: joined.userName } : null,
    whatsapp: row.whatsappId && joined.whatsappName != null ? { id: row.whatsappId, name: joined.whatsappName } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

/** the schedule as the API answers it, announced to the company (`company-{id}-schedule`) */
export const announceSchedule = async (
  ctx: TAppContext,
  companyId: number,
  id: number,
  action: 'create' | 'update',
): Promise<TSchedule | null> => {
  const joined = await findScheduleWithNames(ctx.db, companyId, id);
  if (!joined) return null;
  const schedule = toSchedule(ctx, joined);
  const payload: TScheduleEvent = { action, schedule };
  ctx.realtime.toCompany(companyId, events.schedule(companyId), payload);

  return schedule;
};

/** announceSchedule `update` for many schedules of the company, read together (the sender's batch outcomes) */
export const announceSchedulesUpdated = async (ctx: TAppContext, companyId: number, ids: number[]) => {
  for (const joined of await findSchedulesWithNames(ctx.db, companyId, ids)) {
    const payload: TScheduleEvent = { action: 'update', schedule: toSchedule(ctx, joined) };
    ctx.realtime.toCompany(companyId, events.schedule(companyId), payload);
  }
};

const announceDeleted = (ctx: TAppContext, companyId: number, scheduleId: number) => {
  const payload: TScheduleEvent = { action: 'delete', scheduleId };
  ctx.realtime.toCompany(companyId, events.schedule(companyId), payload);
};

const invalid = (path: string, message = 'invalid') =>
  new AppError('ERR_VALIDATION', `Invalid ${path}`, [{ path, message }]);

const parseSendAt = async (ctx: TAppContext, companyId: number, moment: string) => {
  const at = momentToDate(moment, await companyZone(ctx.db, companyId));
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < 2000 || year > 2200) throw invalid('sendAt');

  return at;
};

const checkContact = async (ctx: TAppContext, companyId: number, contactId: number) => {
  if (!(await contactOfCompany(ctx.db, companyId, contactId))) throw new AppError('ERR_NO_CONTACT_FOUND');
};

const checkConnection = async (ctx: TAppContext, companyId: number, whatsappId: number | null | undefined) => {
  if (whatsappId && !(await connectionOfCompany(ctx.db, companyId, whatsappId))) {
    throw new AppError('ERR_NO_WAPP_FOUND');
  }
};

const loadVisible = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const joined = await findScheduleWithNames(ctx.db, auth.companyId, id);
  if (!joined) throw new AppError('ERR_NO_SCHEDULE_FOUND');

  return joined;
};

/** its author or an admin changes it */
const assertEditor = (auth: TAuth, row: TScheduleRow) => {
  if (!auth.isAdmin && row.userId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
};

/** sent (or being sent) schedules are history: they are not edited */
const assertEditable = (row: TScheduleRow) => {
  if (row.sentAt || row.status === 'ENVIADA') throw new AppError('ERR_CONFLICT', 'This schedule was already sent');
  if (row.status === 'AGENDADA') throw new AppError('ERR_CONFLICT', 'This schedule is being sent');
};

export const listSchedules = async (ctx: TAppContext, auth: TAuth, query: TScheduleListQuery) => {
  const from = query.startDate ? new Date(query.startDate) : undefined;
  const to = query.endDate ? new Date(query.endDate) : undefined;
  const ranged = Boolean(from || to);
  const size = ranged ? RANGE_PAGE_SIZE : undefined;
  const { limit, offset } = pageWindow(query.pageNumber, size);
  const filter = { search: query.searchParam, contactId: query.contactId, userId: query.userId, from, to };
  const { rows, total } = await pageSchedules(ctx.db, auth.companyId, filter, limit, offset);
  const page = pageAnswer(
    rows.map((row) => toSchedule(ctx, row)),
    total,
    query.pageNumber,
    size,
  );

  return { schedules: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getSchedule = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toSchedule(ctx, await loadVisible(ctx, auth, id));

/** the sender's hook: a change of due times re-arms this node's timer (set by schedule-sender.ts) */
export type TScheduleWakeup = () => void;
const wakeups = new WeakMap<object, TScheduleWakeup>();
export const setScheduleWakeup = (ctx: TAppContext, fn: TScheduleWakeup) => {
  wakeups.set(ctx, fn);
};
const wakeup = (ctx: TAppContext) => wakeups.get(ctx)?.();

export const createSchedule = async (ctx: TAppContext, auth: TAuth, body: TScheduleBody) => {
  const companyId = auth.companyId;
  await checkContact(ctx, companyId, body.contactId);
  await checkConnection(ctx, companyId, body.whatsappId);
  let ticketId: number | null = null;
  if (body.ticketId) {
    const ticket = await findTicketPlain(ctx.db, companyId, body.ticketId);
    // a ticket of another contact is not a place for this one's message
    if (ticket?.contactId === body.contactId) ticketId = ticket.id;
  }
  const sendAt = await parseSendAt(ctx, companyId, body.sendAt);
  const row = await insertSchedule(ctx.db, {
    companyId,
    body: body.body,
    contactId: body.contactId,
    sendAt,
    whatsappId: body.whatsappId ?? null,
    ticketId,
    userId: auth.userId,
    status: 'PENDENTE',
  });
  wakeup(ctx);

  return (await announceSchedule(ctx, companyId, row.id, 'create'))!;
};

/**
 * Changes a schedule that was not sent: a new time, text, contact or connection. One that failed (ERRO) is
 * scheduled again (PENDENTE, its reason cleared).
 */
export const updateSchedule = async (ctx: TAppContext, auth: TAuth, id: number, body: TScheduleUpdateBody) => {
  const companyId = auth.companyId;
  const before = (await loadVisible(ctx, auth, id)).row;
  assertEditor(auth, before);
  assertEditable(before);
  if (body.contactId) await checkContact(ctx, companyId, body.contactId);
  await checkConnection(ctx, companyId, body.whatsappId);
  const sendAt = body.sendAt ? await parseSendAt(ctx, companyId, body.sendAt) : undefined;
  await ctx.db.transaction(async (tx) => {
    // the sender may have claimed it meanwhile
    const current = await lockSchedule(tx, companyId, id);
    if (!current) throw new AppError('ERR_NO_SCHEDULE_FOUND');
    assertEditable(current);
    await updateScheduleRow(tx, companyId, id, {
      body: body.body,
      contactId: body.contactId,
      sendAt,
      whatsappId: body.whatsappId,
      // another contact's message does not go to the first one's ticket
      ...(body.contactId && body.contactId !== current.contactId ? { ticketId: null } : {}),
      status: 'PENDENTE',
      errorMessage: null,
    });
  });
  wakeup(ctx);

  return (await announceSchedule(ctx, companyId, id, 'update'))!;
};

export const deleteSchedule = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = (await loadVisible(ctx, auth, id)).row;
  assertEditor(auth, row);
  const deleted = await deleteScheduleRow(ctx.db, auth.companyId, id);
  if (!deleted) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  await removeMediaFile(ctx.config, deleted.mediaPath);
  wakeup(ctx);
  announceDeleted(ctx, auth.companyId, id);
};

export type TScheduleUpload = { data: Buffer; fileName: string };

/** spec 1 §5: png, jpg or jpeg, by the file's content (its name and label are not trusted) */
const assertImage = (data: Buffer) => {
  const type = detectType(data);
  if (type.mime !== 'image/png' && type.mime !== 'image/jpeg') {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Only png, jpg or jpeg images are accepted', [
      { path: 'file', message: 'invalid' },
    ]);
  }

  return type;
};

/** the editor's rights are checked before the body is read */
export const attachScheduleMedia = async (
  ctx: TAppContext,
  auth: TAuth,
  id: number,
  read: () => Promise<TScheduleUpload | undefined>,
) => {
  const companyId = auth.companyId;
  const before = (await loadVisible(ctx, auth, id)).row;
  assertEditor(auth, before);
  assertEditable(before);
  const upload = await read();
  if (!upload || upload.data.length === 0) {
    throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'file', message: 'required' }]);
  }
  const type = assertImage(upload.data);
  await replaceMediaFile(ctx.config, upload.data, type.ext, (stored) =>
    ctx.db.transaction(async (tx) => {
      const current = await lockSchedule(tx, companyId, id);
      if (!current) throw new AppError('ERR_NO_SCHEDULE_FOUND');
      assertEditable(current);
      const mediaName = cleanFileName(upload.fileName, `image.${type.ext}`).replace(/ /g, '_');
      const value = await updateScheduleRow(tx, companyId, id, { mediaPath: stored, mediaName });

      return { value, previous: current.mediaPath };
    }),
  );

  return (await announceSchedule(ctx, companyId, id, 'update'))!;
};

export const detachScheduleMedia = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const companyId = auth.companyId;
  const before = (await loadVisible(ctx, auth, id)).row;
  assertEditor(auth, before);
  assertEditable(before);
  const earlier = await ctx.db.transaction(async (tx) => {
    const current = await lockSchedule(tx, companyId, id);
    if (!current) throw new AppError('ERR_NO_SCHEDULE_FOUND');
    assertEditable(current);
    if (current.mediaPath || current.mediaName) {
      await updateScheduleRow(tx, companyId, id, { mediaPath: null, mediaName: null });
    }

    return current.mediaPath;
  });
  await removeMediaFile(ctx.config, earlier);

  return (await announceSchedule(ctx, companyId, id, 'update'))!;
};
