import { z } from 'zod';
import { V, zNumeric } from './common.js';

/** spec 1 §9: the dashboard's periods (days); 0 = none */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;
/** the longest window the dashboard aggregates (days); a longer range is cut to the days ending at its last day */
export const DASHBOARD_MAX_DAYS = 366;

const isRealDay = (v: string) => {
  const [y, m, d] = v.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));

  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1970;
};

/** a calendar day yyyy-MM-dd (in the company's time zone); "" means none */
export const zDashboardDay = z
  .string({ error: V.invalid })
  .trim()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/, V.invalid)
  .refine((v) => v === '' || isRealDay(v), V.invalid)
  .transform((v) => v || undefined);

/** `GET /dashboard`: `days` (the last N days), or `date_from` and/or `date_to`; a `companyId` is ignored */
export const ZDashboardQuery = z
  .object({
    days: zNumeric(z.number().int(V.invalid).min(0, V.invalid).max(10_000, V.invalid)).optional(),
    date_from: zDashboardDay.optional(),
    date_to: zDashboardDay.optional(),
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, { message: V.invalid, path: ['date_from'] });
export type TDashboardQuery = z.infer<typeof ZDashboardQuery>;

/** the charts' `initialDate` / `finalDate` (yyyy-MM-dd; today when left out); a `companyId` is ignored */
export const ZDashboardChartQuery = z
  .object({ initialDate: zDashboardDay.optional(), finalDate: zDashboardDay.optional() })
  .refine((q) => !q.initialDate || !q.finalDate || q.initialDate <= q.finalDate, {
    message: V.invalid,
    path: ['initialDate'],
  });
export type TDashboardChartQuery = z.infer<typeof ZDashboardChartQuery>;

export const ZDashboardCounters = z.object({
  /** tickets in conversation now (whatever the window) */
  supportHappening: z.number(),
  /** tickets waiting now (whatever the window) */
  supportPending: z.number(),
  /** attendance cycles finished in the window */
  supportFinished: z.number(),
  /** contacts created in the window */
  leads: z.number(),
  /** minutes from accepting to closing (or asking the rating), over cycles finished in the window */
  avgSupportTime: z.number(),
  /** minutes from queueing to accepting, over cycles accepted in the window */
  avgWaitTime: z.number(),
});
export type TDashboardCounters = z.infer<typeof ZDashboardCounters>;

export const ZDashboardAttendant = z.object({
  id: z.number(),
  name: z.string(),
  /** average customer rating in the window, 0–3 (0 = none) */
  rating: z.number(),
  /** cycles the attendant finished in the window */
  tickets: z.number(),
  avgSupportTime: z.number(),
  online: z.boolean(),
});
export type TDashboardAttendant = z.infer<typeof ZDashboardAttendant>;

export const ZDashboard = z.object({ counters: ZDashboardCounters, attendants: z.array(ZDashboardAttendant) });
export type TDashboard = z.infer<typeof ZDashboard>;

export const ZTicketsUsers = z.object({
  data: z.array(z.object({ nome: z.string(), quantidade: z.number() })),
  count: z.number(),
});
export type TTicketsUsers = z.infer<typeof ZTicketsUsers>;

/** per day `{data: 'dd/MM/yyyy', total}` chronologically, or per hour `{horario: 0–23, total}` for a single day */
export const ZTicketsDay = z.object({
  data: z.array(
    z.union([z.object({ data: z.string(), total: z.number() }), z.object({ horario: z.number(), total: z.number() })]),
  ),
  count: z.number(),
});
export type TTicketsDay = z.infer<typeof ZTicketsDay>;
