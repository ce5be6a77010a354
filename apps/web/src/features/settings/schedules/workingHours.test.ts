import { describe, expect, it } from 'vitest';
import { maskTime, toWorkingHours, ZWorkingHoursForm } from './workingHours';

describe('toWorkingHours', () => {
  it('should give the 7 days from monday with defaults when nothing is stored', () => {
    const week = toWorkingHours(undefined);
    expect(week.map((d) => d.weekdayEn)).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ]);
    expect(week[0]).toMatchObject({ startTime: '08:00', endTime: '18:00' });
    expect(week[5]).toMatchObject({ startTime: '08:00', endTime: '12:00' });
    expect(ZWorkingHoursForm.safeParse({ schedules: week }).success).toBe(true);
  });

  it('should keep the stored hours of a day', () => {
    const week = toWorkingHours([{ weekday: 'x', weekdayEn: 'friday', startTime: '09:30', endTime: '17:00' }]);
    expect(week[4]).toEqual({ weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '09:30', endTime: '17:00' });
  });
});

describe('maskTime', () => {
  it('should mask digits as ##:##', () => {
    expect(maskTime('0830')).toBe('08:30');
    expect(maskTime('08:3')).toBe('08:3');
    expect(maskTime('8')).toBe('8');
    expect(maskTime('12a:345')).toBe('12:34');
  });

  it('should let the schema refuse an impossible time', () => {
    const week = toWorkingHours(undefined);
    week[0] = { ...week[0], startTime: '25:00' };
    expect(ZWorkingHoursForm.safeParse({ schedules: week }).success).toBe(false);
  });
});
