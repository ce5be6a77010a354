/**
 * Quick messages (with their media), schedules (pending ones stay pending, sent ones stay history), helps,
 * invoices, announcements and file lists with their files. Media paths are looked for where the ancestor's
 * upload put them (`public/<kind>/…`, then `public/`). Rules: a row of no imported company (or contact, for a
 * schedule) is skipped; a missing media file is reported and the row kept without it.
 */
import { announcements } from '../../../db/schema/announcements';
import { helps, invoices } from '../../../db/schema/core';
import { files, filesOptions } from '../../../db/schema/files';
import { quickMessages } from '../../../db/schema/quick-messages';
import { schedules } from '../../../db/schema/schedules';
import { bool, cut, date, day, idOrNull, int, nameOr } from '../clean';
import { insertRows } from '../insert';
import type { TMediaCopier } from '../media';
import { idsOf, ownersOf, type TImportState, type TModel, takenOf } from '../model';
import { restoreAll, restoreKeys, restoreOwned } from './_restore';
import { ownId } from './automation';
import { stamps } from './contacts';
import { uniqueName } from './core';
import { importedContact } from './tickets';

const companyIn = (state: TImportState, value: unknown) => {
  const id = idOrNull(value);

  return id !== null && idsOf(state, 'companies').has(id) ? id : null;
};

/** a row's media copied in: its stored name and shown name, or nothing with the reason reported */
const copyMedia = async (media: TMediaCopier, path: unknown, name: unknown, folders: string[], adjusted: string[]) => {
  const copied = await media(path, folders);
  if (!copied) return { mediaPath: null, mediaName: null };
  if ('problem' in copied) {
    adjusted.push(copied.problem);

    return { mediaPath: null, mediaName: null };
  }

  return { mediaPath: copied.stored, mediaName: cut(name, 255) || copied.name, mime: copied.mime };
};

type TQuick = typeof quickMessages.$inferInsert;
export const quickMessagesModel: TModel<TQuick> = {
  name: 'quick messages',
  table: 'QuickMessages',
  key: ['id'],
  required: ['id', 'shortcode', 'companyId'],
  optional: ['message', 'createdAt', 'updatedAt', 'userId', 'mediaPath', 'mediaName', 'geral', 'status'],
  batch: 200,
  map: async (r, { state, media }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'quick message of no imported company' };
    const adjusted: string[] = [];
    const userId = ownId(state, 'users', r.userId, companyId);
    const { mediaPath, mediaName } = await copyMedia(media, r.mediaPath, r.mediaName, ['quickMessage'], adjusted);

    return {
      adjusted,
      row: {
        id: idOrNull(r.id)!,
        companyId,
        userId,
        shortcode: nameOr(r.shortcode, 50, `atalho${r.id}`),
        message: cut(r.message, 100_000),
        // the ancestor lists a user's own quick messages; one with no owner is shared
        geral: r.geral === undefined ? userId === null : bool(r.geral, false),
        status: bool(r.status, true),
        mediaPath,
        mediaName,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, quickMessages, rows);
    return undefined;
  },
};

const SCHEDULE_STATUSES = new Set(['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO']);

type TSchedule = typeof schedules.$inferInsert;
export const schedulesModel: TModel<TSchedule> = {
  name: 'schedules',
  table: 'Schedules',
  key: ['id'],
  required: ['id', 'body', 'sendAt', 'contactId', 'companyId'],
  optional: ['sentAt', 'ticketId', 'userId', 'createdAt', 'updatedAt', 'status', 'mediaName', 'mediaPath'],
  batch: 500,
  map: async (r, { state, media }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'schedule of no imported company' };
    const contactId = importedContact(state, idOrNull(r.contactId));
    if (contactId === null || ownersOf(state, 'contacts').get(contactId) !== companyId) {
      return { skip: 'schedule of a deleted or not imported contact' };
    }
    const sendAt = date(r.sendAt, null);
    if (!sendAt) return { skip: 'schedule without a send time' };
    const adjusted: string[] = [];
    const sentAt = date(r.sentAt, null);
    let status = String(r.status ?? '').toUpperCase();
    if (!SCHEDULE_STATUSES.has(status)) {
      status = sentAt ? 'ENVIADA' : 'PENDENTE';
      adjusted.push('status not known: read from its sent time');
    }
    const ticketId = idOrNull(r.ticketId);
    const ticket = ticketId === null ? undefined : state.tickets.get(ticketId);
    const { mediaPath, mediaName } = await copyMedia(media, r.mediaPath, r.mediaName, [], adjusted);

    return {
      adjusted,
      row: {
        id: idOrNull(r.id)!,
        companyId,
        body: cut(r.body, 100_000),
        sendAt,
        sentAt,
        status,
        contactId,
        ticketId: ticket && ticket.companyId === companyId ? ticketId : null,
        userId: ownId(state, 'users', r.userId, companyId),
        mediaPath,
        mediaName,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, schedules, rows);
    return undefined;
  },
};

type THelp = typeof helps.$inferInsert;
export const helpsModel: TModel<THelp> = {
  name: 'helps',
  table: 'Helps',
  key: ['id'],
  required: ['id', 'title'],
  optional: ['description', 'video', 'link', 'createdAt', 'updatedAt'],
  map: (r) => ({
    row: {
      id: idOrNull(r.id)!,
      title: nameOr(r.title, 100, `Help ${r.id}`),
      description: cut(r.description, 100_000),
      video: cut(r.video, 200),
      link: cut(r.link, 2000),
      ...stamps(r),
    },
  }),
  write: async (tx, rows) => {
    await insertRows(tx, helps, rows);
    return undefined;
  },
};

type TInvoice = typeof invoices.$inferInsert;
export const invoicesModel: TModel<TInvoice> = {
  name: 'invoices',
  table: 'Invoices',
  key: ['id'],
  required: ['id', 'companyId', 'dueDate'],
  optional: ['detail', 'status', 'value', 'createdAt', 'updatedAt'],
  restore: restoreKeys('invoice', "select company_id || ':' || due_date as k from invoices"),
  map: (r, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'invoice of no imported company' };
    const dueDate = day(r.dueDate);
    if (!dueDate) return { skip: 'invoice without a due date' };
    const taken = takenOf(state, 'invoice');
    if (taken.has(`${companyId}:${dueDate}`))
      return { skip: 'second invoice of a company for one due date (first kept)' };
    taken.add(`${companyId}:${dueDate}`);
    const paid = String(r.status ?? '').toLowerCase() === 'paid';
    const value = Number(r.value ?? 0);

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId,
        detail: cut(r.detail, 200),
        value: Number.isFinite(value) && value >= 0 ? Math.round(value * 100) / 100 : 0,
        dueDate,
        status: paid ? 'paid' : 'open',
        paidAt: paid ? date(r.updatedAt, null) : null,
        paidVia: paid ? 'manual' : null,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, invoices, rows);
    return undefined;
  },
};

type TAnnouncement = typeof announcements.$inferInsert;
export const announcementsModel: TModel<TAnnouncement> = {
  name: 'announcements',
  table: 'Announcements',
  key: ['id'],
  required: ['id', 'title', 'text', 'companyId'],
  optional: ['priority', 'mediaPath', 'mediaName', 'status', 'createdAt', 'updatedAt'],
  map: async (r, { state, media }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'announcement of no imported company' };
    const adjusted: string[] = [];
    const { mediaPath, mediaName } = await copyMedia(media, r.mediaPath, r.mediaName, ['announcements'], adjusted);
    const priority = int(r.priority, 3);

    return {
      adjusted,
      row: {
        id: idOrNull(r.id)!,
        companyId,
        priority: priority >= 1 && priority <= 3 ? priority : 3,
        title: nameOr(r.title, 200, `Announcement ${r.id}`),
        text: cut(r.text, 100_000),
        mediaPath,
        mediaName,
        status: bool(r.status, true),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, announcements, rows);
    return undefined;
  },
};

type TFileList = typeof files.$inferInsert;
export const fileListsModel: TModel<TFileList> = {
  name: 'file lists',
  table: 'Files',
  key: ['id'],
  required: ['id', 'companyId', 'name'],
  optional: ['message', 'createdAt', 'updatedAt'],
  restore: restoreAll(
    restoreOwned('file lists', 'files'),
    restoreKeys('file lists', "select company_id || ':' || lower(name) as k from files"),
  ),
  map: (r, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'file list of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(
      takenOf(state, 'file lists'),
      r.name,
      id,
      100,
      `Files ${id}`,
      `${companyId}:`,
    );
    idsOf(state, 'file lists').add(id);
    ownersOf(state, 'file lists').set(id, companyId);

    return { adjusted, row: { id, companyId, name, message: cut(r.message, 100_000), ...stamps(r) } };
  },
  write: async (tx, rows) => {
    await insertRows(tx, files, rows);
    return undefined;
  },
};

type TFileOption = typeof filesOptions.$inferInsert;
export const fileOptionsModel: TModel<TFileOption> = {
  name: 'file list files',
  table: 'FilesOptions',
  key: ['id'],
  required: ['id', 'name', 'path', 'fileId'],
  optional: ['createdAt', 'updatedAt', 'mediaType'],
  batch: 200,
  map: async (r, { state, media }) => {
    const fileId = idOrNull(r.fileId);
    const companyId = fileId === null ? undefined : ownersOf(state, 'file lists').get(fileId);
    if (companyId === undefined) return { skip: 'file of no imported file list' };
    const copied = await media(r.path, [`fileList/${fileId}`, 'fileList']);
    if (!copied) return { skip: 'file without a path' };
    if ('problem' in copied) return { skip: copied.problem };

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId,
        fileId: fileId!,
        name: cut(r.name, 255) || copied.name,
        path: copied.stored,
        mediaType: copied.mime,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, filesOptions, rows);
    return undefined;
  },
};
