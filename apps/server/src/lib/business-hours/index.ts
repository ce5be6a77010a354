/**
 * Business hours: the time that counts for attendance figures (reports, service-level targets).
 *
 * A calendar is a time zone and a week of working hours as the settings define them (`scheduleType`):
 * - `company`: the company's schedule (Settings › Schedules), for every ticket;
 * - `queue`: the ticket's queue's schedule; a ticket without a queue has no hours of its own, so every hour counts
 *   (the inbound pipeline likewise sends no out-of-hours message for it);
 * - `disabled` (the default) or anything else: no working hours, every hour counts.
 * The week's rules are the inbound pipeline's (`schedule-rules.ts`): a weekday without a row, or with both times
 * empty, is open all day; `00:00`–`00:00` is closed all day (a day off); an end before the start is open from the
 * start to midnight and from midnight to the end on that weekday. Times are read in the company's time zone,
 * never the server's `TZ`; a day with a clock change is 23 or 25 hours long, and its open range is measured on the
 * real clock.
 *
 * `businessMs(cal, from, to)` is the open time inside [from, to); `addBusinessMs(cal, from, ms)` the instant where
 * `ms` of open time after `from` have passed (null when the week has no open minute); `nextTransition` the next
 * instant the calendar opens or closes, for a timer. A calendar with `schedules: null` counts every millisecond.
 */

import { openRanges, safeTimeZone, type TScheduleRow } from './schedule-rules';
import { minuteOfDay, nextZoneDay, type TZoneDay, zoneDayOf } from './zone-days';

export type { TScheduleRow } from './schedule-rules';

export type TBusinessCalendar = {
  timeZone: string;
  /** the week's working hours; null = no working hours, every hour counts */
  schedules: readonly TScheduleRow[] | null;
};

export const ALWAYS_OPEN_ZONE = 'UTC';

/** the calendar the settings give a ticket (see the file head) */
export const calendarFor = (o: {
  scheduleType: string | null | undefined;
  timeZone: string | null | undefined;
  companySchedules?: readonly TScheduleRow[] | null;
  /** the ticket's queue's schedule, undefined or null when it has no queue */
  queueSchedules?: readonly TScheduleRow[] | null;
}): TBusinessCalendar => {
  const timeZone = safeTimeZone(o.timeZone);
  if (o.scheduleType === 'company') return { timeZone, schedules: o.companySchedules ?? [] };
  if (o.scheduleType === 'queue' && o.queueSchedules) return { timeZone, schedules: o.queueSchedules };

  return { timeZone, schedules: null };
};

const weeks = new WeakMap<readonly TScheduleRow[], [number, number][][]>();
/** the open minute ranges of each weekday (0 sunday … 6 saturday), parsed once per schedule list */
const weekRanges = (schedules: readonly TScheduleRow[]) => {
  let ranges = weeks.get(schedules);
  if (!ranges) {
    ranges = [0, 1, 2, 3, 4, 5, 6].map((weekday) => openRanges(schedules, weekday));
    weeks.set(schedules, ranges);
  }

  return ranges;
};

/** whether any weekday has an open minute */
const hasOpenTime = (schedules: readonly TScheduleRow[]) => weekRanges(schedules).some((day) => day.length > 0);

/**
 * Visits the open intervals [a, b) of the calendar that end after `from`, in order, clipped to start at `from`
 * at the earliest, until `visit` answers true or an interval starts at or after `until`.
 */
const walkOpen = (
  cal: TBusinessCalendar & { schedules: readonly TScheduleRow[] },
  from: number,
  until: number,
  visit: (a: number, b: number) => boolean,
) => {
  const zone = cal.timeZone;
  const week = weekRanges(cal.schedules);
  let day: TZoneDay = zoneDayOf(zone, from);
  for (; day.start < until; day = nextZoneDay(zone, day)) {
    for (const [lo, hi] of week[day.weekday]!) {
      const a = Math.max(minuteOfDay(zone, day, lo), from);
      const b = minuteOfDay(zone, day, hi);
      if (b <= a) continue;
      if (a >= until) return;
      if (visit(a, b)) return;
    }
  }
};

/** the open time in [from, to), in ms (0 when to ≤ from) */
export const businessMs = (cal: TBusinessCalendar, from: Date | number, to: Date | number): number => {
  const start = +from;
  const end = +to;
  if (!(end > start)) return 0;
  if (!cal.schedules) return end - start;
  const schedules = cal.schedules;
  if (!hasOpenTime(schedules)) return 0;
  let total = 0;
  walkOpen({ timeZone: safeTimeZone(cal.timeZone), schedules }, start, end, (a, b) => {
    total += Math.min(b, end) - a;
    return false;
  });

  return total;
};

/** the open time in [from, to), in whole seconds (rounded) */
export const businessSeconds = (cal: TBusinessCalendar, from: Date | number, to: Date | number) =>
  Math.round(businessMs(cal, from, to) / 1000);

/**
 * The instant at which `ms` of open time after `from` have passed: `from` itself plus `ms` while open, the
 * closed hours skipped. `ms` = 0 answers `from` when open, else the next opening. Null when the calendar's week
 * has no open minute at all.
 */
export const addBusinessMs = (cal: TBusinessCalendar, from: Date | number, ms: number): Date | null => {
  const start = +from;
  const wanted = Math.max(0, ms);
  if (!cal.schedules) return new Date(start + wanted);
  const schedules = cal.schedules;
  if (!hasOpenTime(schedules)) return null;
  let left = wanted;
  let found: number | null = null;
  walkOpen({ timeZone: safeTimeZone(cal.timeZone), schedules }, start, Number.POSITIVE_INFINITY, (a, b) => {
    if (b - a >= left) {
      found = a + left;
      return true;
    }
    left -= b - a;
    return false;
  });

  return found === null ? null : new Date(found);
};

/** `addBusinessMs` in minutes (the unit targets are set in) */
export const addBusinessMinutes = (cal: TBusinessCalendar, from: Date | number, minutes: number) =>
  addBusinessMs(cal, from, minutes * 60_000);

/** whether the instant is inside the working hours */
export const isBusinessTime = (cal: TBusinessCalendar, at: Date | number): boolean => {
  if (!cal.schedules) return true;
  const when = +at;

  return businessMs(cal, when, when + 1) > 0;
};

/**
 * The next instant after `at` at which the calendar opens or closes (a timer's next wake-up); null when it never
 * changes (no working hours, or never open).
 */
export const nextTransition = (cal: TBusinessCalendar, at: Date | number): Date | null => {
  if (!cal.schedules || !hasOpenTime(cal.schedules)) return null;
  const when = +at;
  const schedules = cal.schedules;
  const open = isBusinessTime(cal, when);
  let found: number | null = null;
  let lastEnd: number | null = null;
  // a week without a gap is open all the time: look 8 days ahead at most
  walkOpen({ timeZone: safeTimeZone(cal.timeZone), schedules }, when, when + 8 * 86_400_000, (a, b) => {
    // adjacent ranges (23:00–24:00 then 00:00–…) are one open stretch
    if (lastEnd !== null && a > lastEnd) {
      found = open ? lastEnd : a;
      return true;
    }
    if (!open && a > when) {
      found = a;
      return true;
    }
    lastEnd = b;
    return false;
  });

  return found === null ? null : new Date(found);
};
