import { momentHasZone } from '@zelo/shared';
/** building an Intl.DateTimeFormat is slow (every authenticated request asks for one): one per zone */
const dayFormats = new Map<string, Intl.DateTimeFormat | null>();
const dayFormat = (timeZone: string) => {
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      format = null; // unknown zone
    }
    if (dayFormats.size < 1000) dayFormats.set(timeZone, format);
  }

  return format;
};

const clockFormats = new Map<string, Intl.DateTimeFormat | null>();

/**
 * A formatter of an instant's wall-clock fields in a zone (year, month, day, hour 00–23, minute, second; read
 * them with formatToParts), one per zone; null for a zone Intl does not know.
 */
export const clockFormat = (timeZone: string) => {
  let format = clockFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      format = null; // unknown zone
    }
    if (clockFormats.size < 1000) clockFormats.set(timeZone, format);
  }

  return format;
};

/** yyyy-MM-dd of an instant in a time zone */
export const dayInZone = (date: Date, timeZone: string) =>
  dayFormat(timeZone)?.format(date) ?? date.toISOString().slice(0, 10);

export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

/** adds months to a yyyy-MM-dd date, clamping to the month's last day */
export const addMonthsToDay = (day: string, months: number) => {
  const [y, m, d] = day.split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));

  return target.toISOString().slice(0, 10);
};

/** true when the company's due date is before today in its time zone */
export const isPastDue = (dueDate: string | null, timeZone: string, now = new Date()) =>
  dueDate !== null && dueDate < dayInZone(now, timeZone);

/** the wall-clock fields of an instant in a zone, as a UTC timestamp */
const wallClockAsUtc = (at: number, timeZone: string) => {
  const format = clockFormat(timeZone);
  if (!format) return at;
  const f = Object.fromEntries(format.formatToParts(new Date(at)).map((p) => [p.type, p.value]));

  return Date.UTC(+f.year, +f.month - 1, +f.day, +f.hour, +f.minute, +f.second, new Date(at).getUTCMilliseconds());
};

/**
 * The instant of a moment (`zMoment`, shared common.ts): as written when it names its offset, else its
 * wall-clock time in the company's zone (the ancestor's schedule and campaign dialogs send the browser's
 * local time with no zone). The one reading of zone-less times: schedules and campaigns use it.
 */
export const momentToDate = (moment: string, timeZone: string) => {
  if (momentHasZone(moment)) return new Date(moment);
  const wall = Date.parse(`${moment.replace(' ', 'T')}Z`);
  // the zone's offset at that moment, found in two steps (right around a daylight-saving change)
  let guess = wall - (wallClockAsUtc(wall, timeZone) - wall);
  guess = wall - (wallClockAsUtc(guess, timeZone) - guess);

  return new Date(guess);
};
