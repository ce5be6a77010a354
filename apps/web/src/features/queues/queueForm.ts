import { AUTO_ASSIGN_MAX, DEFAULT_QUEUE_SCHEDULES, type TQueue } from '@zelo/shared';
import { ApiError } from '../../api/http';

/** A working day as the hours tab edits it: HH:mm, or both empty for open all day. */
export type TScheduleRow = { weekday: string; weekdayEn: string; startTime: string; endTime: string };

/** The queue dialog's fields as the inputs hold them; the shared schema turns them into the request. */
export type TQueueFormValues = {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  /** a number typed, or "" for no order */
  orderQueue: string;
  /** an id, or "" for none */
  integrationId: number | '';
  promptId: number | '';
  schedules: TScheduleRow[];
  /** fair automatic assignment (features/assignment/AutoAssignFields) */
  autoAssign: boolean;
  /** a number typed (1–100) */
  autoAssignMax: string;
  /** service-level targets: a number typed, or "" for the company default */
  slaFirstResponseMinutes: string;
  slaResolutionHours: string;
};

/**
 * The seven days Monday to Sunday, each from the queue's stored row when it has one (a queue saved by
 * another client may hold fewer), else the default week of spec 2 §3.
 */
export const weekOf = (schedules: readonly TScheduleRow[] | undefined): TScheduleRow[] =>
  DEFAULT_QUEUE_SCHEDULES.map((fallback) => {
    const stored = schedules?.find((row) => row.weekdayEn === fallback.weekdayEn);

    return stored ? { ...fallback, startTime: stored.startTime ?? '', endTime: stored.endTime ?? '' } : { ...fallback };
  });

const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export const toQueueFormValues = (queue: TQueue | null, defaultColor: string): TQueueFormValues => ({
  name: queue?.name ?? '',
  color: queue?.color ?? defaultColor,
  greetingMessage: queue?.greetingMessage ?? '',
  outOfHoursMessage: queue?.outOfHoursMessage ?? '',
  orderQueue: queue?.orderQueue === null || queue?.orderQueue === undefined ? '' : String(queue.orderQueue),
  integrationId: queue?.integrationId ?? '',
  promptId: queue?.promptId ?? '',
  schedules: weekOf(queue?.schedules),
  autoAssign: queue?.autoAssign ?? false,
  autoAssignMax: String(queue?.autoAssignMax ?? AUTO_ASSIGN_MAX.default),
  slaFirstResponseMinutes: numberText(queue?.slaFirstResponseMinutes),
  slaResolutionHours: numberText(queue?.slaResolutionHours),
});

/** The list's order, as the server sorts it and the bot numbers its menu: by order (none last), then name. */
export const sortQueues = <T extends Pick<TQueue, 'id' | 'name' | 'orderQueue'>>(queues: readonly T[]): T[] =>
  [...queues].sort(
    (a, b) =>
      (a.orderQueue ?? Number.POSITIVE_INFINITY) - (b.orderQueue ?? Number.POSITIVE_INFINITY) ||
      a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
      a.id - b.id,
  );

/** `#RGB`, `#RRGGBB` or `#RRGGBBAA`: what a swatch can show */
export const isHexColor = (value: string) => /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value.trim());

/** The first palette colour no other queue uses (case-insensitive), for a new queue. */
export const firstFreeColor = (palette: readonly string[], used: readonly string[]) => {
  const taken = new Set(used.map((c) => c.toLowerCase()));

  return palette.find((c) => !taken.has(c.toLowerCase())) ?? palette[0] ?? '';
};

/**
 * The field a 409 of the queue routes is about (a name or colour another queue of the company holds), with
 * the message key the field shows; null for any other error.
 */
export const conflictField = (err: unknown): { field: 'name' | 'color'; message: string } | null => {
  if (!(err instanceof ApiError)) {
    return null;
  }
  if (err.code === 'ERR_DUPLICATED_QUEUE') {
    return { field: 'name', message: 'nameTaken' };
  }
  if (err.code === 'ERR_QUEUE_COLOR_ALREADY_EXISTS') {
    return { field: 'color', message: 'colorTaken' };
  }

  return null;
};
