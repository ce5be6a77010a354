import {
  DASHBOARD_MAX_DAYS,
  type TDashboard,
  type TDashboardChartQuery,
  type TDashboardQuery,
  type TTicketsDay,
  type TTicketsUsers,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import type { TAppContext } from '../../lib/context';
import { clockFormat, dayInZone } from '../../lib/dates';
import {
  createdPerDay,
  NO_FIGURES,
  readFigures,
  readFiguresAndUsers,
  type TLabeledWindow,
  type TWindow,
} from './dashboard.repo';

const DAY_MS = 86_400_000;
const QUARTER_MS = 900_000;
const HOUR_MS = 3_600_000;

/** minutes, two decimals, of a mean of microseconds */
const meanMinutes = (sumUs: number, count: number) =>
  count > 0 ? Math.round((sumUs / count / 60_000_000) * 100) / 100 : 0;

/** a zone Intl knows, else UTC (a company's zone is validated when saved; this only keeps SQL safe) */
const zoneOf = (auth: TAuth) => (clockFormat(auth.company.timezone) ? auth.company.timezone : 'UTC');

/** milliseconds the zone's wall clock is ahead of UTC at an instant */
const offsetAt = (instant: number, timeZone: string) => {
  const parts = Object.fromEntries(
    (clockFormat(timeZone)?.formatToParts(new Date(instant)) ?? []).map((p) => [p.type, p.value]),
  );
  if (!parts.year) return 0;
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);

  return wall - Math.floor(instant / 1000) * 1000;
};

/** day starts already computed, per zone and day (a zone's rules do not change while the process runs) */
const dayStarts = new Map<string, number>();
const DAY_STARTS_KEPT = 20_000;

/**
 * the instant a calendar day (yyyy-MM-dd) starts in a zone (DST-safe: the offset is re-read at the result); kept,
 * as a 90-day chart asks for 91 of them and each costs two Intl calls
 */
export const startOfDayIn = (day: string, timeZone: string) => {
  const key = `${timeZone} ${day}`;
  const known = dayStarts.get(key);
  if (known !== undefined) return new Date(known);
  const [y, m, d] = day.split('-').map(Number);
  const utcMidnight = Date.UTC(y, m - 1, d);
  let instant = utcMidnight - offsetAt(utcMidnight, timeZone);
  instant = utcMidnight - offsetAt(instant, timeZone);
  if (dayStarts.size >= DAY_STARTS_KEPT) dayStarts.clear();
  dayStarts.set(key, instant);

  return new Date(instant);
};

const shiftDay = (day: string, days: number) => {
  const [y, m, d] = day.split('-').map(Number);

  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
};

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * Calendar days [first, last] of the company's zone: what was asked, today for a missing end, the last
 * day for a missing start, and at most DASHBOARD_MAX_DAYS days (a longer range keeps its last days).
 */
const dayRange = (first: string | undefined, last: string | undefined, timeZone: string, now: Date) => {
  const to = last ?? (first && first > dayInZone(now, timeZone) ? first : dayInZone(now, timeZone));
  let from = first ?? to;
  if (daysBetween(from, to) >= DASHBOARD_MAX_DAYS) from = shiftDay(to, -(DASHBOARD_MAX_DAYS - 1));

  return { from, to };
};

const windowOfDays = (from: string, to: string, timeZone: string): TWindow => ({
  from: startOfDayIn(from, timeZone),
  to: startOfDayIn(shiftDay(to, 1), timeZone),
});

/**
 * `days` = the last N×24 hours up to now; else `date_from` … `date_to` as whole days of the company's zone
 * (either may be left out); nothing at all = today.
 */
export const dashboardWindow = (query: TDashboardQuery, timeZone: string, now = new Date()): TWindow => {
  if (query.days && query.days > 0) {
    const days = Math.min(query.days, DASHBOARD_MAX_DAYS);

    return { from: new Date(now.getTime() - days * DAY_MS), to: now };
  }
  const { from, to } = dayRange(query.date_from, query.date_to, timeZone, now);

  return windowOfDays(from, to, timeZone);
};

/**
 * An answer as the JSON bytes sent, kept in the ticket lists' store (modules/tickets/list-answers.ts) until the
 * company's next announced change (a ticket, contact or user event) or 3 s: the admins of a company looking at
 * the same window share one read, and requests arriving during that read wait for it.
 */
const kept = (ctx: TAppContext, auth: TAuth, key: string, load: () => Promise<unknown>) =>
  ctx.listAnswers.answer(auth.companyId, `dashboard ${zoneOf(auth)} ${key}`, async () =>
    Buffer.from(JSON.stringify(await load())),
  );

export const readDashboard = async (ctx: TAppContext, auth: TAuth, query: TDashboardQuery): Promise<TDashboard> => {
  const window = dashboardWindow(query, zoneOf(auth));
  const { figures, users, now } = await readFiguresAndUsers(
    ctx.db,
    auth.companyId,
    [{ ...window, label: 0 }],
    { totals: true, attendants: true },
    { now: true },
  );
  const of = (userId: number) => figures.get(0)?.get(userId) ?? NO_FIGURES;
  const total = of(0);

  return {
    counters: {
      supportHappening: now.happening,
      supportPending: now.pending,
      supportFinished: total.finished,
      leads: total.leads,
      avgSupportTime: meanMinutes(total.supportUs, total.supports),
      avgWaitTime: meanMinutes(total.waitUs, total.waits),
    },
    attendants: users.map((u) => {
      const f = of(u.id);

      return {
        id: u.id,
        name: u.name,
        rating: f.ratings > 0 ? Math.round((f.ratingSum / f.ratings) * 100) / 100 : 0,
        tickets: f.finished,
        avgSupportTime: meanMinutes(f.supportUs, f.supports),
        online: u.online,
      };
    }),
  };
};

export const getDashboard = (ctx: TAppContext, auth: TAuth, query: TDashboardQuery) =>
  kept(ctx, auth, `main ${JSON.stringify([query.days ?? 0, query.date_from, query.date_to])}`, () =>
    readDashboard(ctx, auth, query),
  );

export const getTicketsUsers = (ctx: TAppContext, auth: TAuth, query: TDashboardChartQuery) =>
  kept(ctx, auth, `users ${query.initialDate} ${query.finalDate}`, () => readTicketsUsers(ctx, auth, query));

export const getTicketsDay = (ctx: TAppContext, auth: TAuth, query: TDashboardChartQuery) =>
  kept(ctx, auth, `day ${query.initialDate} ${query.finalDate}`, () => readTicketsDay(ctx, auth, query));

export const readTicketsUsers = async (
  ctx: TAppContext,
  auth: TAuth,
  query: TDashboardChartQuery,
): Promise<TTicketsUsers> => {
  const timeZone = zoneOf(auth);
  const { from, to } = dayRange(query.initialDate, query.finalDate, timeZone, new Date());
  const window = { ...windowOfDays(from, to, timeZone), label: 0 };
  const { figures, users } = await readFiguresAndUsers(
    ctx.db,
    auth.companyId,
    [window],
    { totals: false, attendants: true },
    { now: false },
  );
  const data = users.map((u) => ({ nome: u.name, quantidade: figures.get(0)?.get(u.id)?.finished ?? 0 }));

  return { data, count: data.reduce((sum, row) => sum + row.quantidade, 0) };
};

/** dd/MM/yyyy of a yyyy-MM-dd day */
const brDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/**
 * The hours of the zone's clock in a window: each quarter-hour (every real zone's hour starts on one) labelled
 * with its wall-clock hour, neighbours of the same hour joined; a day with a repeated hour gives that label twice.
 */
const hoursOf = (window: TWindow, timeZone: string): TLabeledWindow[] => {
  const hours: TLabeledWindow[] = [];
  const end = window.to.getTime();
  // one offset for the whole day unless the clock changes in it (then read at every quarter-hour)
  const first = offsetAt(window.from.getTime(), timeZone);
  const steady = first === offsetAt(end - 1, timeZone);
  for (let at = window.from.getTime(); at < end; ) {
    const next = Math.min(end, Math.floor(at / QUARTER_MS) * QUARTER_MS + QUARTER_MS);
    const offset = steady ? first : offsetAt(at, timeZone);
    const label = Math.floor(((((at + offset) % DAY_MS) + DAY_MS) % DAY_MS) / 3_600_000);
    const last = hours.at(-1);
    if (last && last.label === label && last.to.getTime() === at) last.to = new Date(next);
    else hours.push({ label, from: new Date(at), to: new Date(next) });
    at = next;
  }

  return hours;
};

/** cycles created per hour for one day, else per day; every hour or day of the range is present (0 when none), in order */
export const readTicketsDay = async (
  ctx: TAppContext,
  auth: TAuth,
  query: TDashboardChartQuery,
): Promise<TTicketsDay> => {
  const timeZone = zoneOf(auth);
  const { from, to } = dayRange(query.initialDate, query.finalDate, timeZone, new Date());
  const createdIn = (figures: Map<number, Map<number, { created: number }>>, label: number) =>
    figures.get(label)?.get(0)?.created ?? 0;
  if (from === to) {
    const figures = await readFigures(ctx.db, auth.companyId, hoursOf(windowOfDays(from, to, timeZone), timeZone), {
      totals: true,
      attendants: false,
    });
    const data = Array.from({ length: 24 }, (_, horario) => ({ horario, total: createdIn(figures, horario) }));

    return { data, count: data.reduce((sum, row) => sum + row.total, 0) };
  }
  // one read grouped by the zone's day: the hour tier when every local midnight of the window is on a whole UTC
  // hour (every whole-hour zone, daylight saving included), else the quarter-hour tier
  const starts: number[] = [];
  for (let day = from; day <= shiftDay(to, 1); day = shiftDay(day, 1))
    starts.push(startOfDayIn(day, timeZone).getTime());
  const span = starts.every((at) => at % HOUR_MS === 0) ? 60 : 15;
  const window = { from: new Date(starts[0]!), to: new Date(starts.at(-1)!) };
  const perDay = await createdPerDay(ctx.db, auth.companyId, window, timeZone, span);
  const data: { data: string; total: number }[] = [];
  for (let day = from; day <= to; day = shiftDay(day, 1)) data.push({ data: brDay(day), total: perDay.get(day) ?? 0 });

  return { data, count: data.reduce((sum, row) => sum + row.total, 0) };
};
