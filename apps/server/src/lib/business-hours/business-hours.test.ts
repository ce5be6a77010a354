import { afterEach, describe, expect, it } from 'vitest';
import {
  addBusinessMinutes,
  addBusinessMs,
  businessMs,
  businessSeconds,
  calendarFor,
  isBusinessTime,
  nextTransition,
  type TBusinessCalendar,
  type TScheduleRow,
} from '.';
import { isOpenAt } from './schedule-rules';
import { wallToInstant, zoneDayOf } from './zone-days';

const HOUR = 3_600_000;
const MIN = 60_000;
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** a week of rows: every weekday `start`–`end`, some days overridden */
const week = (start: string, end: string, overrides: Record<string, [string, string]> = {}): TScheduleRow[] =>
  DAYS.map((weekdayEn) => ({
    weekdayEn,
    startTime: overrides[weekdayEn]?.[0] ?? start,
    endTime: overrides[weekdayEn]?.[1] ?? end,
  }));

/** the spec's default queue week: Monday–Friday 08–18, Saturday 08–12, Sunday off */
const OFFICE = week('08:00', '18:00', { saturday: ['08:00', '12:00'], sunday: ['00:00', '00:00'] });
const SP = 'America/Sao_Paulo'; // UTC−3 all year since 2019
const office: TBusinessCalendar = { timeZone: SP, schedules: OFFICE };
/** São Paulo wall clock → instant (2025-01-06 is a Monday) */
const sp = (local: string) => new Date(`${local}-03:00`);

const serverZone = process.env.TZ;
afterEach(() => {
  if (serverZone === undefined) delete process.env.TZ;
  else process.env.TZ = serverZone;
});

describe('business time over a week of working hours (company zone São Paulo)', () => {
  it('counts only the open hours of a day', () => {
    expect(businessMs(office, sp('2025-01-06T07:00'), sp('2025-01-06T19:00'))).toBe(10 * HOUR);
    expect(businessMs(office, sp('2025-01-06T09:15'), sp('2025-01-06T09:45'))).toBe(30 * MIN);
    expect(businessMs(office, sp('2025-01-06T18:00'), sp('2025-01-07T08:00'))).toBe(0);
    expect(businessSeconds(office, sp('2025-01-06T17:59:30'), sp('2025-01-06T18:30'))).toBe(30);
  });

  it('skips the weekend: Friday 17:00 to Monday 09:00 is two hours (Saturday morning counts four)', () => {
    expect(businessMs(office, sp('2025-01-10T17:00'), sp('2025-01-13T09:00'))).toBe(1 * HOUR + 4 * HOUR + 1 * HOUR);
    const noSaturday: TBusinessCalendar = {
      timeZone: SP,
      schedules: week('08:00', '18:00', { saturday: ['00:00', '00:00'], sunday: ['00:00', '00:00'] }),
    };
    expect(businessMs(noSaturday, sp('2025-01-10T17:00'), sp('2025-01-13T09:00'))).toBe(2 * HOUR);
  });

  it('a whole holiday-free week is 5 × 10 h + 4 h, and four weeks are four times that', () => {
    expect(businessMs(office, sp('2025-01-06T00:00'), sp('2025-01-13T00:00'))).toBe(54 * HOUR);
    expect(businessMs(office, sp('2025-01-06T00:00'), sp('2025-02-03T00:00'))).toBe(4 * 54 * HOUR);
  });

  it('answers 0 for an empty or reversed span', () => {
    expect(businessMs(office, sp('2025-01-06T10:00'), sp('2025-01-06T10:00'))).toBe(0);
    expect(businessMs(office, sp('2025-01-06T11:00'), sp('2025-01-06T10:00'))).toBe(0);
  });

  it('adds business minutes across closed hours and the weekend', () => {
    expect(addBusinessMinutes(office, sp('2025-01-06T10:00'), 30)).toEqual(sp('2025-01-06T10:30'));
    // 30 min left on Friday, 4 h on Saturday, the rest on Monday
    expect(addBusinessMinutes(office, sp('2025-01-10T17:30'), 30 + 240 + 45)).toEqual(sp('2025-01-13T08:45'));
    // before opening: the clock starts at 08:00
    expect(addBusinessMinutes(office, sp('2025-01-07T03:00'), 60)).toEqual(sp('2025-01-07T09:00'));
    // zero minutes: now when open, else the next opening
    expect(addBusinessMinutes(office, sp('2025-01-07T12:00'), 0)).toEqual(sp('2025-01-07T12:00'));
    expect(addBusinessMinutes(office, sp('2025-01-11T13:00'), 0)).toEqual(sp('2025-01-13T08:00'));
    // exactly the day's remaining time ends at closing time
    expect(addBusinessMinutes(office, sp('2025-01-06T17:00'), 60)).toEqual(sp('2025-01-06T18:00'));
  });

  it('adding then measuring gives back what was added, for many starts and amounts', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 300; i++) {
      const from = sp('2025-01-01T00:00').getTime() + Math.floor(rand() * 60 * 24 * HOUR);
      const amount = Math.floor(rand() * 80 * HOUR);
      const end = addBusinessMs(office, from, amount)!;
      expect(businessMs(office, from, end)).toBe(amount);
      // and nothing of the amount is left a minute before the end if that minute was open
      if (isBusinessTime(office, end.getTime() - MIN))
        expect(businessMs(office, from, end.getTime() - MIN)).toBe(amount - MIN);
    }
  });

  it('agrees with the pipeline on whether an instant is open', () => {
    for (let t = sp('2025-01-04T00:00').getTime(); t < sp('2025-01-14T00:00').getTime(); t += 17 * MIN) {
      expect(isBusinessTime(office, t)).toBe(isOpenAt(OFFICE, SP, new Date(t)));
    }
  });

  it('names the next opening and closing', () => {
    expect(nextTransition(office, sp('2025-01-06T10:00'))).toEqual(sp('2025-01-06T18:00'));
    expect(nextTransition(office, sp('2025-01-06T19:00'))).toEqual(sp('2025-01-07T08:00'));
    expect(nextTransition(office, sp('2025-01-11T12:30'))).toEqual(sp('2025-01-13T08:00'));
    expect(nextTransition({ timeZone: SP, schedules: null }, sp('2025-01-06T10:00'))).toBeNull();
    expect(nextTransition({ timeZone: SP, schedules: [] }, sp('2025-01-06T10:00'))).toBeNull();
    // open until midnight, then open from midnight: one stretch, which ends on Tuesday 06:00
    const nights: TBusinessCalendar = { timeZone: SP, schedules: week('22:00', '06:00') };
    expect(nextTransition(nights, sp('2025-01-06T23:00'))).toEqual(sp('2025-01-07T06:00'));
  });
});

describe('the rules of the schedule rows', () => {
  it('a day off (00:00–00:00) counts nothing; a missing row or empty times count the whole day', () => {
    const schedules = [
      { weekdayEn: 'monday', startTime: '00:00', endTime: '00:00' },
      { weekdayEn: 'tuesday', startTime: '', endTime: '' },
    ];
    const cal: TBusinessCalendar = { timeZone: SP, schedules };
    expect(businessMs(cal, sp('2025-01-06T00:00'), sp('2025-01-07T00:00'))).toBe(0);
    expect(businessMs(cal, sp('2025-01-07T00:00'), sp('2025-01-08T00:00'))).toBe(24 * HOUR);
    expect(businessMs(cal, sp('2025-01-08T00:00'), sp('2025-01-09T00:00'))).toBe(24 * HOUR);
  });

  it('an overnight range counts from its start to midnight and from midnight to its end', () => {
    const cal: TBusinessCalendar = { timeZone: SP, schedules: week('22:00', '06:00') };
    expect(businessMs(cal, sp('2025-01-06T00:00'), sp('2025-01-07T00:00'))).toBe(8 * HOUR);
    expect(businessMs(cal, sp('2025-01-06T21:00'), sp('2025-01-07T07:00'))).toBe(8 * HOUR);
  });

  it('an end of 00:00 is midnight', () => {
    const cal: TBusinessCalendar = { timeZone: SP, schedules: week('20:00', '00:00') };
    expect(businessMs(cal, sp('2025-01-06T00:00'), sp('2025-01-07T00:00'))).toBe(4 * HOUR);
  });

  it('a week with no open minute counts nothing and never reaches a target', () => {
    const closed: TBusinessCalendar = { timeZone: SP, schedules: week('00:00', '00:00') };
    expect(businessMs(closed, sp('2025-01-06T00:00'), sp('2026-01-06T00:00'))).toBe(0);
    expect(addBusinessMinutes(closed, sp('2025-01-06T00:00'), 1)).toBeNull();
    expect(nextTransition(closed, sp('2025-01-06T00:00'))).toBeNull();
  });
});

describe('which calendar the settings give', () => {
  const queueHours = week('12:00', '14:00');
  const companyHours = OFFICE;

  it('company: the company week for every ticket, whatever its queue', () => {
    const cal = calendarFor({
      scheduleType: 'company',
      timeZone: SP,
      companySchedules: companyHours,
      queueSchedules: queueHours,
    });
    expect(businessMs(cal, sp('2025-01-06T00:00'), sp('2025-01-07T00:00'))).toBe(10 * HOUR);
  });

  it("queue: the ticket's queue week; a ticket without a queue counts every hour", () => {
    const cal = calendarFor({
      scheduleType: 'queue',
      timeZone: SP,
      companySchedules: companyHours,
      queueSchedules: queueHours,
    });
    expect(businessMs(cal, sp('2025-01-06T00:00'), sp('2025-01-07T00:00'))).toBe(2 * HOUR);
    expect(addBusinessMinutes(cal, sp('2025-01-06T13:30'), 60)).toEqual(sp('2025-01-07T12:30'));
    const none = calendarFor({
      scheduleType: 'queue',
      timeZone: SP,
      companySchedules: companyHours,
      queueSchedules: null,
    });
    expect(businessMs(none, sp('2025-01-06T00:00'), sp('2025-01-07T00:00'))).toBe(24 * HOUR);
  });

  it('disabled (the default): every hour counts, as on the wall clock', () => {
    const cal = calendarFor({ scheduleType: 'disabled', timeZone: SP, companySchedules: companyHours });
    expect(businessMs(cal, sp('2025-01-10T17:00'), sp('2025-01-13T09:00'))).toBe(64 * HOUR);
    expect(addBusinessMinutes(cal, sp('2025-01-10T17:00'), 90)).toEqual(sp('2025-01-10T18:30'));
  });

  it('an unknown zone falls back to São Paulo, as the pipeline does', () => {
    const cal = calendarFor({ scheduleType: 'company', timeZone: 'Mars/Olympus', companySchedules: companyHours });
    expect(cal.timeZone).toBe(SP);
  });
});

describe("the company's zone, not the server's TZ", () => {
  const measure = () => ({
    tokyo: businessMs(
      { timeZone: 'Asia/Tokyo', schedules: OFFICE },
      new Date('2025-01-06T00:00:00Z'),
      new Date('2025-01-07T00:00:00Z'),
    ),
    sp: businessMs(office, new Date('2025-01-06T00:00:00Z'), new Date('2025-01-07T00:00:00Z')),
    added: addBusinessMinutes(office, new Date('2025-01-10T20:30:00Z'), 60)?.toISOString(),
  });

  it('gives the same answers whatever TZ the server process runs in', () => {
    process.env.TZ = 'UTC';
    expect(new Date(2025, 0, 6).getTimezoneOffset()).toBe(0);
    const inUtc = measure();
    process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: the server's local date is a day ahead
    expect(new Date(2025, 0, 6).getTimezoneOffset()).toBe(-14 * 60);
    expect(measure()).toEqual(inUtc);
    process.env.TZ = 'America/Los_Angeles';
    expect(measure()).toEqual(inUtc);
    // the same UTC day is a different piece of each company's week: Tokyo's Monday 09–18 and Tuesday 08–09 local;
    // São Paulo's Sunday evening (closed) and Monday 08–18 up to 21:00 local
    expect(inUtc.tokyo).toBe(9 * HOUR + 1 * HOUR);
    expect(inUtc.sp).toBe(10 * HOUR);
    // Friday 17:30 São Paulo + 60 business minutes = Saturday 08:30 there (11:30 UTC)
    expect(inUtc.added).toBe('2025-01-11T11:30:00.000Z');
  });
});

describe('days with a clock change', () => {
  const NY = 'America/New_York';

  it('a spring-forward day is 23 hours long and an open range across the change loses its hour', () => {
    // 2025-03-09: 02:00 EST → 03:00 EDT (a Sunday)
    const allDay: TBusinessCalendar = { timeZone: NY, schedules: [] };
    const start = wallToInstant(NY, 2025, 3, 9, 0);
    const end = wallToInstant(NY, 2025, 3, 10, 0);
    expect(businessMs(allDay, start, end)).toBe(23 * HOUR);
    const early: TBusinessCalendar = {
      timeZone: NY,
      schedules: [{ weekdayEn: 'sunday', startTime: '01:00', endTime: '04:00' }],
    };
    expect(businessMs(early, start, end)).toBe(2 * HOUR);
    expect(zoneDayOf(NY, start + 12 * HOUR).day).toBe(9);
  });

  it('a fall-back day is 25 hours long; 08–18 on it is still 10 hours', () => {
    // 2025-11-02: 02:00 EDT → 01:00 EST
    const start = wallToInstant(NY, 2025, 11, 2, 0);
    const end = wallToInstant(NY, 2025, 11, 3, 0);
    expect(end - start).toBe(25 * HOUR);
    expect(businessMs({ timeZone: NY, schedules: [] }, start, end)).toBe(25 * HOUR);
    const officeNy: TBusinessCalendar = { timeZone: NY, schedules: week('08:00', '18:00') };
    expect(businessMs(officeNy, start, end)).toBe(10 * HOUR);
    expect(new Date(wallToInstant(NY, 2025, 11, 2, 8 * 60)).toISOString()).toBe('2025-11-02T13:00:00.000Z');
  });
});
