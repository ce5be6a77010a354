import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import type { TScheduleRow } from '../../lib/business-hours';

const rowsOf = async <T>(db: TDbOrTx, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const toDate = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
const toJson = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export type TDirtyTicket = {
  id: number;
  companyId: number;
  startedAt: Date;
  firstResponseAt: Date | null;
  firstResponseBreachedAt: Date | null;
  /** the due times stored before this computation */
  firstResponseDueAt: Date | null;
  resolutionDueAt: Date | null;
  queue: { slaFirstResponseMinutes: number | null; slaResolutionHours: number | null } | null;
  queueSchedules: TScheduleRow[] | null;
  timeZone: string;
  companySchedules: TScheduleRow[];
  scheduleType: string | null;
  companyFirstResponse: string | null;
  companyResolution: string | null;
};

type TDirtyRaw = {
  id: number;
  company_id: number;
  sla_started_at: unknown;
  sla_first_response_at: unknown;
  sla_first_response_breached_at: unknown;
  sla_first_response_due_at: unknown;
  sla_resolution_due_at: unknown;
  queue_id: number | null;
  q_first: number | null;
  q_resolution: number | null;
  q_schedules: unknown;
  timezone: string;
  c_schedules: unknown;
  schedule_type: string | null;
  c_first: string | null;
  c_resolution: string | null;
};

const setting = (key: string) =>
  sql.raw(`(select s.value from settings s where s.company_id = t.company_id and s.key = '${key}')`);

/**
 * Open tickets whose due times are to be computed, locked for this transaction (other nodes skip them), with what
 * the computation reads: the queue's targets and hours, the company's zone, hours and defaults.
 */
export const lockDirtyTickets = async (tx: TDbOrTx, limit: number): Promise<TDirtyTicket[]> => {
  const rows = await rowsOf<TDirtyRaw>(
    tx,
    sql`
    with picked as (
      select id from tickets where sla_dirty order by id limit ${limit} for update skip locked
    )
    select t.id, t.company_id, t.sla_started_at, t.sla_first_response_at, t.sla_first_response_breached_at,
      t.sla_first_response_due_at, t.sla_resolution_due_at,
      t.queue_id, q.sla_first_response_minutes as q_first, q.sla_resolution_hours as q_resolution,
      q.schedules as q_schedules, c.timezone, c.schedules as c_schedules,
      ${setting('scheduleType')} as schedule_type, ${setting('slaFirstResponseMinutes')} as c_first,
      ${setting('slaResolutionHours')} as c_resolution
    from tickets t
      join picked p on p.id = t.id
      join companies c on c.id = t.company_id
      left join queues q on q.id = t.queue_id and q.company_id = t.company_id`,
  );

  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    startedAt: toDate(r.sla_started_at) ?? new Date(),
    firstResponseAt: toDate(r.sla_first_response_at),
    firstResponseBreachedAt: toDate(r.sla_first_response_breached_at),
    firstResponseDueAt: toDate(r.sla_first_response_due_at),
    resolutionDueAt: toDate(r.sla_resolution_due_at),
    queue: r.queue_id === null ? null : { slaFirstResponseMinutes: r.q_first, slaResolutionHours: r.q_resolution },
    queueSchedules: r.queue_id === null ? null : toJson<TScheduleRow[]>(r.q_schedules),
    timeZone: r.timezone,
    companySchedules: toJson<TScheduleRow[]>(r.c_schedules) ?? [],
    scheduleType: r.schedule_type,
    companyFirstResponse: r.c_first,
    companyResolution: r.c_resolution,
  }));
};

/** the computed due times of a locked dirty ticket; a first reply already given is judged against its new due */
export const writeDueTimes = (
  tx: TDbOrTx,
  id: number,
  due: { firstResponseDueAt: Date | null; resolutionDueAt: Date | null },
) =>
  tx.execute(sql`
    update tickets set sla_dirty = false,
      sla_first_response_due_at = ${due.firstResponseDueAt}, sla_resolution_due_at = ${due.resolutionDueAt},
      sla_first_response_met = case
        when sla_first_response_at is not null and ${due.firstResponseDueAt}::timestamptz is not null
          then sla_first_response_at <= ${due.firstResponseDueAt}::timestamptz
        when sla_first_response_breached_at is not null then false
        else null end
    where id = ${id}`);

export type TBreach = {
  id: number;
  companyId: number;
  userId: number | null;
  queueId: number | null;
  contactName: string;
  dueAt: Date;
};

type TBreachRaw = {
  id: number;
  company_id: number;
  user_id: number | null;
  queue_id: number | null;
  contact_name: string | null;
  due_at: unknown;
};

const breachesOf = (rows: TBreachRaw[]): TBreach[] =>
  rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    userId: r.user_id,
    queueId: r.queue_id,
    contactName: r.contact_name ?? '',
    dueAt: toDate(r.due_at) ?? new Date(0),
  }));

/**
 * Claims the first-response targets missed by `now`: one UPDATE that stamps `sla_first_response_breached_at` only
 * where it is still null, so of several nodes checking at once exactly one returns each breach. Reads the partial
 * index tickets_sla_first_due_idx (open cycles not yet answered nor missed) up to `limit` rows.
 */
export const claimFirstResponseBreaches = async (db: TDbOrTx, now: Date, limit: number) =>
  breachesOf(
    await rowsOf<TBreachRaw>(
      db,
      sql`
      with claimed as (
        update tickets t set sla_first_response_breached_at = ${now}, sla_first_response_met = false
        where t.id in (
          select id from tickets
          where sla_first_response_due_at is not null and sla_first_response_at is null
            and sla_first_response_breached_at is null and status <> 'closed'
            and sla_first_response_due_at <= ${now}
          order by sla_first_response_due_at limit ${limit} for update skip locked
        ) and t.sla_first_response_breached_at is null and t.sla_first_response_at is null
        returning t.id, t.company_id, t.user_id, t.queue_id, t.contact_id, t.sla_first_response_due_at as due_at
      )
      select claimed.*, c.name as contact_name from claimed left join contacts c on c.id = claimed.contact_id`,
    ),
  );

/** the same for resolution targets (tickets_sla_resolution_due_idx) */
export const claimResolutionBreaches = async (db: TDbOrTx, now: Date, limit: number) =>
  breachesOf(
    await rowsOf<TBreachRaw>(
      db,
      sql`
      with claimed as (
        update tickets t set sla_resolution_breached_at = ${now}, sla_resolution_met = false
        where t.id in (
          select id from tickets
          where sla_resolution_due_at is not null and sla_resolution_breached_at is null and status <> 'closed'
            and sla_resolution_due_at <= ${now}
          order by sla_resolution_due_at limit ${limit} for update skip locked
        ) and t.sla_resolution_breached_at is null and t.status <> 'closed'
        returning t.id, t.company_id, t.user_id, t.queue_id, t.contact_id, t.sla_resolution_due_at as due_at
      )
      select claimed.*, c.name as contact_name from claimed left join contacts c on c.id = claimed.contact_id`,
    ),
  );

/** a target changed: the open tickets it may apply to get their due times again (the queue's, or the company's) */
export const markOpenTicketsDirty = (db: TDbOrTx, companyId: number, queueId?: number) =>
  db.execute(sql`
    update tickets set sla_dirty = true
    where company_id = ${companyId} and status <> 'closed' and not sla_dirty
      ${queueId === undefined ? sql`` : sql`and queue_id = ${queueId}`}`);
