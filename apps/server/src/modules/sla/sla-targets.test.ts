import { describe, expect, it } from 'vitest';
import { dueTimes, effectiveTargets, slaCalendar, targetOfSetting } from './sla-targets';

const weekdays = (start: string, end: string) =>
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekdayEn) => ({
    weekdayEn,
    startTime: start,
    endTime: end,
  }));
const weekend = ['saturday', 'sunday'].map((weekdayEn) => ({ weekdayEn, startTime: '00:00', endTime: '00:00' }));

describe('service-level due times in business hours (fixed instants)', () => {
  const company = [...weekdays('09:00', '18:00'), ...weekend];
  const cal = slaCalendar({
    scheduleType: 'company',
    timeZone: 'America/Sao_Paulo',
    companySchedules: company,
    queueSchedules: null,
  });

  it('a ticket made on Friday 17:30 (São Paulo, UTC-3) is due Monday: the weekend does not count', () => {
    // Friday 2026-11-27 17:30 local = 20:30 UTC
    const start = new Date('2026-11-27T20:30:00Z');
    const due = dueTimes(cal, start, { firstResponseMinutes: 60, resolutionHours: 10 });
    // 30 minutes on Friday, 30 more from Monday 09:00 → Monday 09:30 local = 12:30 UTC
    expect(due.firstResponseDueAt?.toISOString()).toBe('2026-11-30T12:30:00.000Z');
    // 10 h: 0.5 h Friday + 9 h Monday (to 18:00) + 0.5 h Tuesday → Tuesday 09:30 local
    expect(due.resolutionDueAt?.toISOString()).toBe('2026-12-01T12:30:00.000Z');
  });

  it('a ticket made on Saturday starts counting at the next opening', () => {
    const start = new Date('2026-11-28T15:00:00Z');
    const due = dueTimes(cal, start, { firstResponseMinutes: 15, resolutionHours: null });
    expect(due.firstResponseDueAt?.toISOString()).toBe('2026-11-30T12:15:00.000Z');
    expect(due.resolutionDueAt).toBeNull();
  });

  it("a queue's own hours (scheduleType queue) and the company's zone, not the server's TZ", () => {
    const queueCal = slaCalendar({
      scheduleType: 'queue',
      timeZone: 'Europe/Lisbon',
      companySchedules: company,
      queueSchedules: [...weekdays('14:00', '16:00'), ...weekend],
    });
    // Wednesday 2026-11-25 15:30 Lisbon (UTC+0 in winter): 30 min left today, 90 on Thursday from 14:00
    const due = dueTimes(queueCal, new Date('2026-11-25T15:30:00Z'), { firstResponseMinutes: 120, resolutionHours: 3 });
    expect(due.firstResponseDueAt?.toISOString()).toBe('2026-11-26T15:30:00.000Z');
    // 3 h = 0.5 today + 2 Thursday + 0.5 Friday
    expect(due.resolutionDueAt?.toISOString()).toBe('2026-11-27T14:30:00.000Z');
  });

  it('without working hours every hour counts; a week never open gives no due time', () => {
    const always = slaCalendar({
      scheduleType: 'disabled',
      timeZone: 'UTC',
      companySchedules: company,
      queueSchedules: null,
    });
    const start = new Date('2026-11-28T10:00:00Z');
    expect(dueTimes(always, start, { firstResponseMinutes: 5, resolutionHours: 1 })).toEqual({
      firstResponseDueAt: new Date('2026-11-28T10:05:00Z'),
      resolutionDueAt: new Date('2026-11-28T11:00:00Z'),
    });
    const closed = slaCalendar({
      scheduleType: 'company',
      timeZone: 'UTC',
      companySchedules: [...weekdays('00:00', '00:00'), ...weekend],
      queueSchedules: null,
    });
    expect(dueTimes(closed, start, { firstResponseMinutes: 5, resolutionHours: 1 })).toEqual({
      firstResponseDueAt: null,
      resolutionDueAt: null,
    });
  });

  it("a queue's own target wins over the company default, each target on its own", () => {
    const company = { firstResponseMinutes: targetOfSetting('30'), resolutionHours: targetOfSetting('8') };
    expect(effectiveTargets({ slaFirstResponseMinutes: 5, slaResolutionHours: null }, company)).toEqual({
      firstResponseMinutes: 5,
      resolutionHours: 8,
    });
    expect(effectiveTargets(null, company)).toEqual({ firstResponseMinutes: 30, resolutionHours: 8 });
    expect(targetOfSetting('')).toBeNull();
    expect(targetOfSetting('0')).toBeNull();
  });
});
