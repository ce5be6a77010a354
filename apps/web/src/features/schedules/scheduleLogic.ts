import type { TAttachmentChange as TImageChange } from '../../components/MediaAttachment';
export type { TImageChange };
import { SCHEDULE_REASONS, type TSchedule, type TScheduleEvent, type TScheduleStatus } from '@zelo/shared';
import dayjs from 'dayjs';
import { api } from '../../api/http';

/** the variables the sender fills in (spec 1 §9), shown under the message field */
export const SCHEDULE_VARIABLES = '{{name}}, {{firstName}}, {{ms}}, {{protocol}}, {{hora}}';

/** the images the dialog attaches (spec 1 §5); the server checks the content */
export const SCHEDULE_IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
export const isScheduleImage = (name: string) => /\.(png|jpe?g)$/i.test(name);

/** a status's palette colour: pending blue, sending amber, sent green, error red */
export const STATUS_COLOR: Record<TScheduleStatus, 'info' | 'warning' | 'success' | 'error'> = {
  PENDENTE: 'info',
  AGENDADA: 'warning',
  ENVIADA: 'success',
  ERRO: 'error',
};

/** a datetime-local field's value (`YYYY-MM-DDTHH:mm`, the browser's zone) */
export const toLocalInput = (date: Date) => dayjs(date).format('YYYY-MM-DDTHH:mm');

/** the dialog's default send time: now plus one hour (spec 1 §9) */
export const defaultSendAt = (now = new Date()) => toLocalInput(dayjs(now).add(1, 'hour').toDate());

/** the field's local time as the instant the server stores */
export const localInputToIso = (value: string) => dayjs(value).toDate().toISOString();

/**
 * A send time already past (by more than a minute): the sender sends such a schedule at once, so the dialog
 * says so under the field and the first save only warns; saving again confirms (B.15: warn and confirm).
 */
export const isPastSendAt = (value: string, now = new Date()) => {
  const at = dayjs(value);

  return at.isValid() && at.valueOf() < now.getTime() - 60_000;
};

/** the i18n key of an ERRO's reason: one of the sender's reasons, an error code, or null for raw text */
export const reasonKey = (errorMessage: string | null) => {
  if (!errorMessage) {
    return null;
  }
  if ((SCHEDULE_REASONS as readonly string[]).includes(errorMessage)) {
    return `schedules.reasons.${errorMessage}`;
  }

  return /^ERR_[A-Z_]+$/.test(errorMessage) ? `errors.${errorMessage}` : null;
};

/** which title the dialog shows */
export const dialogMode = (schedule: TSchedule | null) => {
  if (!schedule) {
    return 'add' as const;
  }
  if (schedule.status === 'ERRO') {
    return 'error' as const;
  }

  return schedule.sentAt ? ('sent' as const) : ('edit' as const);
};

/** a calendar event of a schedule (a 30-minute block at its time) */
export type TCalendarEvent = { id: number; title: string; start: Date; end: Date; schedule: TSchedule };
export const toCalendarEvent = (schedule: TSchedule): TCalendarEvent => {
  const start = new Date(schedule.sendAt);

  return {
    id: schedule.id,
    title: `${schedule.contact.name}: ${schedule.body}`,
    start,
    end: new Date(start.getTime() + 30 * 60_000),
    schedule,
  };
};

/** the schedules list of the calendar's range after an event */
export const applyScheduleEvent = (list: TSchedule[], event: TScheduleEvent) => {
  if (event.action === 'delete') {
    return list.filter((s) => s.id !== Number(event.scheduleId));
  }
  const others = list.filter((s) => s.id !== event.schedule.id);

  return [...others, event.schedule].sort((a, b) => a.sendAt.localeCompare(b.sendAt));
};

/** the calendar's visible range: a month view shows whole weeks around the month */
export const rangeOf = (view: string, date: Date) => {
  if (view === 'agenda') {
    // react-big-calendar's agenda: 30 days from the date
    const from = dayjs(date).startOf('day');

    return { start: from.toDate(), end: from.add(31, 'day').toDate() };
  }
  const unit = view === 'month' ? 'month' : view === 'week' ? 'week' : 'day';
  const start = dayjs(date).startOf(unit).startOf('week');
  const end = dayjs(date).endOf(unit).endOf('week').add(1, 'day').startOf('day');

  return { start: start.toDate(), end: end.toDate() };
};

export type TScheduleSaveBody = {
  body: string;
  contactId: number;
  sendAt: string;
  whatsappId: number | null;
  ticketId?: number | null;
};

export const schedulesApi = {
  range: (start: Date, end: Date) =>
    api.get<{ schedules: TSchedule[]; count: number; hasMore: boolean }>('/schedules', {
      params: { startDate: start.toISOString(), endDate: end.toISOString() },
    }),
  get: (id: number) => api.get<TSchedule>(`/schedules/${id}`),
  remove: (id: number) => api.delete(`/schedules/${id}`),
  /** the schedule, then its image (an upload replaces an earlier one; a removal deletes it) */
  save: async (
    id: number | null,
    body: TScheduleSaveBody,
    image: TImageChange,
    hadImage: boolean,
    onCreated?: (schedule: TSchedule) => void,
  ) => {
    let saved =
      id === null ? await api.post<TSchedule>('/schedules', body) : await api.put<TSchedule>(`/schedules/${id}`, body);
    if (id === null) {
      onCreated?.(saved);
    }
    if (image.kind === 'attach') {
      const form = new FormData();
      form.append('file', image.file, image.file.name);
      saved = await api.upload<TSchedule>(`/schedules/${saved.id}/media-upload`, form);
    } else if (image.kind === 'remove' && hadImage) {
      saved = await api.delete<TSchedule>(`/schedules/${saved.id}/media-upload`);
    }

    return saved;
  },
};
