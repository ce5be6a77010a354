/**
 * Working hours (reference §2.6 steps 1, 2 and 10, without its bugs): one time zone per company, the
 * same rules for the company schedule and a queue's schedule.
 *
 * A schedule row per weekday (`weekdayEn` monday…sunday, `startTime`/`endTime` HH:mm):
 * - no row for the day, or both times empty: open all day;
 * - `00:00`–`00:00`: closed all day;
 * - an end of `00:00` is midnight (open until the end of the day);
 * - an end before the start is an overnight range (open from the start, and before the end).
 */

import { clockFormat } from '../dates';

export type TScheduleRow = { weekdayEn: string; startTime?: string | null; endTime?: string | null };

export const FALLBACK_TIME_ZONE = 'America/Sao_Paulo';

const WEEKDAYS_EN = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** a zone Intl accepts, else the fallback (a bad stored value never breaks the pipeline) */
export const safeTimeZone = (timeZone: string | null | undefined) => {
  if (!timeZone) return FALLBACK_TIME_ZONE;

  return clockFormat(timeZone) ? timeZone : FALLBACK_TIME_ZONE;
};

export type TLocalTime = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 sunday … 6 saturday */
  weekday: number;
  /** minutes since local midnight */
  minutes: number;
};

/** wall-clock fields of an instant in a time zone */
export const localTime = (date: Date, timeZone: string): TLocalTime => {
  const parts = Object.fromEntries(
    clockFormat(safeTimeZone(timeZone))!
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const hour = Number(parts.hour) % 24;
  const minute = Number(parts.minute);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();

  return { year, month, day, hour, minute, second: Number(parts.second), weekday, minutes: hour * 60 + minute };
};

const toMinutes = (value: string | null | undefined): number | null => {
  const match = /^(\d{1,2}):(\d{2})/.exec((value ?? '').trim());
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);

  return minutes >= 0 && minutes <= 24 * 60 ? minutes : null;
};

/** the open ranges of one weekday, as [from, to) minute pairs inside 0…1440 */
export const openRanges = (schedules: readonly TScheduleRow[], weekday: number): [number, number][] => {
  const row = schedules.find((r) => r.weekdayEn?.toLowerCase() === WEEKDAYS_EN[weekday]);
  if (!row) return [[0, 1440]];
  const start = toMinutes(row.startTime);
  const end = toMinutes(row.endTime);
  if (start === null && end === null) return [[0, 1440]];
  const from = start ?? 0;
  const to = end === null || end === 0 ? 1440 : end;
  if (from === 0 && end === 0) return []; // 00:00–00:00: closed
  if (to > from) return [[from, to]];
  if (to === from) return [];

  // overnight: this day's part after the start, and the early part before the end
  return [
    [0, to],
    [from, 1440],
  ];
};

/** whether `now` is inside the working hours */
export const isOpenAt = (schedules: readonly TScheduleRow[], timeZone: string, now: Date) => {
  const local = localTime(now, timeZone);

  return openRanges(schedules, local.weekday).some(([from, to]) => local.minutes >= from && local.minutes < to);
};

/**
 * Whether the hours were open at any moment in [from, to]: an out-of-hours message sent at `from` still
 * covers `to` when they were closed all along (one message per closed period). Looks at most 8 days.
 */
export const wasOpenBetween = (schedules: readonly TScheduleRow[], timeZone: string, from: Date, to: Date) => {
  if (to.getTime() <= from.getTime()) return false;
  const start = localTime(from, timeZone);
  const end = localTime(to, timeZone);
  const startDay = Date.UTC(start.year, start.month - 1, start.day);
  const endDay = Date.UTC(end.year, end.month - 1, end.day);
  const days = Math.round((endDay - startDay) / 86_400_000);
  for (let i = 0; i <= Math.min(days, 8); i++) {
    const weekday = (start.weekday + i) % 7;
    const lower = i === 0 ? start.minutes : 0;
    const upper = i === days ? end.minutes + 1 : 1440;
    if (openRanges(schedules, weekday).some(([a, b]) => a < upper && b > lower)) return true;
  }

  return false;
};
