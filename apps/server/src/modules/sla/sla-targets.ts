import {
  addBusinessMinutes,
  addBusinessMs,
  calendarFor,
  type TBusinessCalendar,
  type TScheduleRow,
} from '../../lib/business-hours';

/** a cycle's targets: business minutes to the first agent reply, business hours to resolution; null = none */
export type TSlaTargets = { firstResponseMinutes: number | null; resolutionHours: number | null };

/** a company-default setting's text ('' or '0' = none) as a target */
export const targetOfSetting = (value: string | null | undefined): number | null => {
  const n = Number(value);

  return Number.isInteger(n) && n > 0 ? n : null;
};

const positive = (n: number | null | undefined) => (typeof n === 'number' && n > 0 ? n : null);

/** each target is the queue's own when it has one, else the company default */
export const effectiveTargets = (
  queue: { slaFirstResponseMinutes: number | null; slaResolutionHours: number | null } | null,
  company: TSlaTargets,
): TSlaTargets => ({
  firstResponseMinutes: positive(queue?.slaFirstResponseMinutes) ?? company.firstResponseMinutes,
  resolutionHours: positive(queue?.slaResolutionHours) ?? company.resolutionHours,
});

/** the calendar targets are counted in: the working hours the settings give the ticket (lib/business-hours) */
export const slaCalendar = (o: {
  scheduleType: string | null | undefined;
  timeZone: string | null | undefined;
  companySchedules: readonly TScheduleRow[] | null;
  queueSchedules: readonly TScheduleRow[] | null;
}): TBusinessCalendar => calendarFor(o);

/**
 * The cycle's due times: `startedAt` plus each target in business time. A calendar without one open minute gives
 * no due time (the target can never be met nor missed by the clock).
 */
export const dueTimes = (cal: TBusinessCalendar, startedAt: Date, targets: TSlaTargets) => ({
  firstResponseDueAt:
    targets.firstResponseMinutes === null ? null : addBusinessMinutes(cal, startedAt, targets.firstResponseMinutes),
  resolutionDueAt:
    targets.resolutionHours === null ? null : addBusinessMs(cal, startedAt, targets.resolutionHours * 3_600_000),
});
