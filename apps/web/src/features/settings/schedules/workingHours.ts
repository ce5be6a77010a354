import { type TWorkingHour, WEEKDAYS, ZWorkingHours } from '@zelo/shared';
import { z } from 'zod';

export const ZWorkingHoursForm = z.object({ schedules: ZWorkingHours });
export type TWorkingHoursForm = z.infer<typeof ZWorkingHoursForm>;

/** Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday closed (the queues' default, spec 2 §3). */
const DEFAULT_HOURS: Record<string, [string, string]> = {
  saturday: ['08:00', '12:00'],
  sunday: ['00:00', '00:00'],
};

/** The 7 days in order, each with the company's stored entry or the default. */
export const toWorkingHours = (stored: TWorkingHour[] | undefined): TWorkingHour[] =>
  WEEKDAYS.map(({ weekday, weekdayEn }) => {
    const entry = stored?.find((s) => s.weekdayEn === weekdayEn);
    const [startTime, endTime] = DEFAULT_HOURS[weekdayEn] ?? ['08:00', '18:00'];

    return entry ? { ...entry, weekday } : { weekday, weekdayEn, startTime, endTime };
  });

/** Masks typed text as ##:## (spec 1 §5): digits only, a colon after the second one. */
export const maskTime = (text: string): string => {
  const digits = text.replace(/\D/g, '').slice(0, 4);

  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
};
