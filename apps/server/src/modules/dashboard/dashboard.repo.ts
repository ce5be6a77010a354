import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';

/**
 * The dashboard's aggregates, in SQL over the attendance cycles (`ticket_trackings`) of ONE company. Every
 * value is a bound parameter; a window is the half-open instant range [from, to) the service computed from
 * the company's calendar days; `timeZone` (the company's) only groups rows into its days and hours.
 */

export type TWindow = { from: Date; to: Date };

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
/** minutes with two decimals */
const minutes = (seconds: unknown) => Math.round((num(seconds) / 60) * 100) / 100;

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** seconds from accepting a cycle to closing it (or to asking for the rating, when one was asked) */
const supportSeconds = sql`extract(epoch from (coalesce(rating_at, finished_at) - started_at))`;

export const dashboardCounters = async (db: TDbOrTx, companyId: number, w: TWindow) => {
  const result = await db.execute(sql`
    select
      (select count(*) from tickets where company_id = ${companyId} and status = 'open') as happening,
      (select count(*) from tickets where company_id = ${companyId} and status = 'pending') as pending,
      (select count(*) from contacts
        where company_id = ${companyId} and is_group = false
          and created_at >= ${at(w.from)} and created_at < ${at(w.to)}) as leads,
      f.finished, f.support, s.wait
    from
      (select count(*) as finished,
          avg(${supportSeconds}) filter (where started_at is not null and coalesce(rating_at, finished_at) > started_at)
            as support
        from ticket_trackings
        where company_id = ${companyId} and finished_at >= ${at(w.from)} and finished_at < ${at(w.to)}) f,
      (select avg(extract(epoch from (started_at - queued_at))) filter (where started_at > queued_at) as wait
        from ticket_trackings
        where company_id = ${companyId} and started_at >= ${at(w.from)} and started_at < ${at(w.to)}) s`);
  const row = rowsOf<Record<string, unknown>>(result)[0];

  return {
    supportHappening: num(row.happening),
    supportPending: num(row.pending),
    supportFinished: num(row.finished),
    leads: num(row.leads),
    avgSupportTime: minutes(row.support),
    avgWaitTime: minutes(row.wait),
  };
};

/** every user of the company with what they finished in the window, their average rating and talk time */
export const dashboardAttendants = async (db: TDbOrTx, companyId: number, w: TWindow) => {
  const result = await db.execute(sql`
    select u.id, u.name, u.online, s.tickets, s.support, r.rating
    from users u
    left join (
      select user_id, count(*) as tickets,
        avg(${supportSeconds}) filter (where started_at is not null and coalesce(rating_at, finished_at) > started_at)
          as support
      from ticket_trackings
      where company_id = ${companyId} and user_id is not null
        and finished_at >= ${at(w.from)} and finished_at < ${at(w.to)}
      group by user_id) s on s.user_id = u.id
    left join (
      select user_id, avg(rate) as rating
      from user_ratings
      where company_id = ${companyId} and user_id is not null
        and created_at >= ${at(w.from)} and created_at < ${at(w.to)}
      group by user_id) r on r.user_id = u.id
    where u.company_id = ${companyId}
    order by lower(u.name), u.id`);

  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    id: Number(r.id),
    name: String(r.name),
    rating: Math.round(num(r.rating) * 100) / 100,
    tickets: num(r.tickets),
    avgSupportTime: minutes(r.support),
    online: r.online === true,
  }));
};

/** cycles finished in the window per attendant (users with none at 0), by name */
export const ticketsPerUser = async (db: TDbOrTx, companyId: number, w: TWindow) => {
  const result = await db.execute(sql`
    select u.name, coalesce(c.n, 0) as n
    from users u
    left join (
      select user_id, count(*) as n
      from ticket_trackings
      where company_id = ${companyId} and user_id is not null
        and finished_at >= ${at(w.from)} and finished_at < ${at(w.to)}
      group by user_id) c on c.user_id = u.id
    where u.company_id = ${companyId}
    order by lower(u.name), u.id`);

  return rowsOf<Record<string, unknown>>(result).map((r) => ({ nome: String(r.name), quantidade: num(r.n) }));
};

/** cycles started in the window per calendar day (yyyy-MM-dd) of the zone; days without any are absent */
export const ticketsPerDay = async (db: TDbOrTx, companyId: number, w: TWindow, timeZone: string) => {
  const result = await db.execute(sql`
    select to_char((created_at at time zone ${timeZone})::date, 'YYYY-MM-DD') as day, count(*) as n
    from ticket_trackings
    where company_id = ${companyId} and created_at >= ${at(w.from)} and created_at < ${at(w.to)}
    group by 1`);

  return new Map(rowsOf<Record<string, unknown>>(result).map((r) => [String(r.day), num(r.n)]));
};

/** cycles started in the window per hour (0–23) of the zone's clock */
export const ticketsPerHour = async (db: TDbOrTx, companyId: number, w: TWindow, timeZone: string) => {
  const result = await db.execute(sql`
    select extract(hour from (created_at at time zone ${timeZone}))::int as hour, count(*) as n
    from ticket_trackings
    where company_id = ${companyId} and created_at >= ${at(w.from)} and created_at < ${at(w.to)}
    group by 1`);

  return new Map(rowsOf<Record<string, unknown>>(result).map((r) => [Number(r.hour), num(r.n)]));
};
