import { clockFormat } from '../dates';

/**
 * Local days of a time zone as instants, for the business-hours arithmetic: where a local day starts and ends
 * (23 or 25 hours on a daylight-saving day) and the instant of a wall-clock minute of that day. A day's bounds are
 * worked out once per zone and day (two Intl readings each) and kept, so walking a year of days costs a few
 * hundred Map reads once warm. Nothing here reads the server's own `TZ`.
 */

const MINUTE = 60_000;

/** the zone's offset from UTC at an instant, in ms (wall clock − UTC) */
export const zoneOffsetAt = (at: number, timeZone: string) => {
  const format = clockFormat(timeZone);
  if (!format) return 0;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of format.formatToParts(new Date(at))) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value) % 24;
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
    }
  }
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);

  return wall - (at - (((at % 1000) + 1000) % 1000));
};

/** the instant a wall-clock time of the zone names (a time skipped by a clock change lands an hour off, as Intl says) */
export const wallToInstant = (timeZone: string, year: number, month: number, day: number, minutes: number) => {
  const wall = Date.UTC(year, month - 1, day) + minutes * MINUTE;
  let guess = wall - zoneOffsetAt(wall, timeZone);
  guess = wall - zoneOffsetAt(guess, timeZone);

  return guess;
};

export type TZoneDay = {
  year: number;
  month: number;
  day: number;
  /** 0 sunday … 6 saturday */
  weekday: number;
  /** the instant the local day starts, and the next one's start */
  start: number;
  end: number;
  /** 24 hours with one offset: a minute of the day is `start + minutes` */
  even: boolean;
};

const days = new Map<string, TZoneDay>();
const MAX_KEPT = 200_000;

/** a local date's day in the zone (month 1–12; the date may overflow: day 32 is next month's 1st) */
export const zoneDay = (timeZone: string, year: number, month: number, day: number): TZoneDay => {
  const date = new Date(Date.UTC(year, month - 1, day));
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + 1;
  const d = date.getUTCDate();
  const key = `${timeZone}|${y}-${m}-${d}`;
  let found = days.get(key);
  if (!found) {
    const next = new Date(Date.UTC(y, m - 1, d + 1));
    const start = wallToInstant(timeZone, y, m, d, 0);
    const end = wallToInstant(timeZone, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0);
    found = { year: y, month: m, day: d, weekday: date.getUTCDay(), start, end, even: end - start === 1440 * MINUTE };
    if (days.size >= MAX_KEPT) days.clear();
    days.set(key, found);
  }

  return found;
};

/** the instant of minute `minutes` (0…1440) of a local day */
export const minuteOfDay = (timeZone: string, day: TZoneDay, minutes: number) => {
  if (minutes <= 0) return day.start;
  if (minutes >= 1440) return day.end;
  if (day.even) return day.start + minutes * MINUTE;

  return wallToInstant(timeZone, day.year, day.month, day.day, minutes);
};

const QUARTER = 15 * MINUTE;
/** the zone's offset per UTC quarter-hour (every real zone changes its offset on a quarter-hour) */
const quarterOffsets = new Map<string, number>();

/** the local day an instant falls on */
export const zoneDayOf = (timeZone: string, at: number): TZoneDay => {
  const quarter = Math.floor(at / QUARTER);
  const key = `${timeZone}|${quarter}`;
  let offset = quarterOffsets.get(key);
  if (offset === undefined) {
    offset = zoneOffsetAt(quarter * QUARTER, timeZone);
    if (quarterOffsets.size >= MAX_KEPT) quarterOffsets.clear();
    quarterOffsets.set(key, offset);
  }
  const wall = new Date(at + offset);
  let day = zoneDay(timeZone, wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate());
  // right at a clock change the offset read may put the instant a day off: step to the day that holds it
  if (at < day.start) day = zoneDay(timeZone, day.year, day.month, day.day - 1);
  else if (at >= day.end) day = zoneDay(timeZone, day.year, day.month, day.day + 1);

  return day;
};

/** the local day after */
export const nextZoneDay = (timeZone: string, day: TZoneDay) => zoneDay(timeZone, day.year, day.month, day.day + 1);
