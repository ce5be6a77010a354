import type { TDbOrTx } from '../../db/client';
import { queryRows } from '../../db/statements';
import type { TScheduleRow } from '../../lib/business-hours';

/**
 * The attendance metrics' statements (ARCHITECTURE "Attendance metrics"). The instants are recorded where they
 * happen — the first agent reply here, on the send path (one named statement that changes nothing after the first
 * reply); the accept, transfers and the first person's action in the ticket transitions' own tracking update; a
 * reopen here — and the figures (durations, reply count, bot time) are computed from them by `metrics-compute.ts`,
 * which claims the cycles the partial index `ticket_trackings_metrics_due_idx` lists.
 */

/** the open cycle's first agent reply (and its first person's action); a no-op once it has one */
export const recordAgentReply = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  userId: number | null,
  at: Date,
) =>
  queryRows(
    db,
    `update ticket_trackings set first_reply_at = $3, first_reply_user_id = $4, human_at = coalesce(human_at, $3)
     where ticket_id = $2 and company_id = $1 and finished_at is null and rating_at is null and first_reply_at is null`,
    [companyId, ticketId, at, userId],
  );

/** the ticket's latest cycle was opened again at `at` (call it after that cycle finished, before the next starts) */
export const markCycleReopened = async (db: TDbOrTx, companyId: number, ticketId: number, at: Date) =>
  queryRows(
    db,
    `update ticket_trackings set reopened_at = $3
     where id = (select max(id) from ticket_trackings where ticket_id = $2 and company_id = $1)
       and company_id = $1 and reopened_at is null and coalesce(rating_at, finished_at) is not null`,
    [companyId, ticketId, at],
  );

/**
 * One batch of the backfill (cycles written before migration 0018): each claimed cycle's first agent reply and its
 * author, read from its messages up to the ticket's next cycle; the first person's action (the accept or that
 * reply); when it was reopened (the next cycle's start, for a resolved cycle). Answers how many cycles it did.
 * Claimed with SKIP LOCKED, so nodes share the work; its figures are then computed as any due cycle's.
 */
export const backfillBatch = async (db: TDbOrTx, limit: number) => {
  const rows = await queryRows<{ n: number }>(
    db,
    `with b as (
       select t.id, t.ticket_id, t.created_at, t.started_at, coalesce(t.rating_at, t.finished_at) as resolved,
              (select n.created_at from ticket_trackings n where n.ticket_id = t.ticket_id and n.id > t.id
               order by n.id limit 1) as next_start
       from ticket_trackings t
       where t.id in (select id from ticket_trackings where metrics_backfill order by id limit $1 for update skip locked)
     ), f as (
       select b.*, fr.created_at as reply_at, fr.user_id as reply_user
       from b left join lateral (
         select m.created_at, m.user_id from messages m
         where m.ticket_id = b.ticket_id and m.created_at >= b.created_at
           and m.created_at < coalesce(b.next_start, 'infinity'::timestamptz)
           and m.from_me and m.source = 'agent' and not m.is_private
         order by m.created_at limit 1
       ) fr on true
     ), u as (
       update ticket_trackings t set
         first_reply_at = coalesce(t.first_reply_at, f.reply_at),
         first_reply_user_id = coalesce(t.first_reply_user_id, f.reply_user),
         human_at = coalesce(t.human_at, least(f.started_at, f.reply_at)),
         reopened_at = coalesce(t.reopened_at, case when f.resolved is not null then f.next_start end),
         metrics_backfill = false
       from f where t.id = f.id
       returning 1
     )
     select count(*)::int as n from u`,
    [limit],
  );

  return rows[0]?.n ?? 0;
};

/** cycles still waiting for the backfill */
export const backfillLeft = async (db: TDbOrTx) =>
  (await queryRows<{ n: number }>(db, 'select count(*)::int as n from ticket_trackings where metrics_backfill', []))[0]
    ?.n ?? 0;

export type TDueCycle = {
  id: number;
  company_id: number;
  queue_id: number | null;
  created_at: Date;
  human_at: Date | null;
  first_reply_at: Date | null;
  resolved_at: Date | null;
  /** the last bot message before a person acted (or the resolution), null when no bot spoke */
  bot_until: Date | null;
  /** agent messages of a resolved cycle; null while unresolved */
  replies: number | null;
};

/**
 * Claims up to `limit` cycles whose figures are due (a first reply or a resolution not measured yet; locked until
 * the transaction ends, others skipped), with what their figures are computed from, the messages' part counted
 * here: the last bot message before a person acted and, once resolved, the agent replies.
 */
export const claimDueCycles = async (tx: TDbOrTx, limit: number) =>
  queryRows<TDueCycle>(
    tx,
    `select t.id, t.company_id, t.queue_id, t.created_at, t.human_at, t.first_reply_at,
            coalesce(t.rating_at, t.finished_at) as resolved_at,
            (select max(m.created_at) from messages m
             where m.ticket_id = t.ticket_id and m.source = 'bot' and m.created_at >= t.created_at
               and m.created_at <= coalesce(t.human_at, t.first_reply_at, t.rating_at, t.finished_at, now())) as bot_until,
            case when coalesce(t.rating_at, t.finished_at) is not null then
              (select count(*)::int from messages m
               where m.ticket_id = t.ticket_id and m.from_me and m.source = 'agent' and not m.is_private
                 and m.created_at >= t.created_at and m.created_at <= coalesce(t.rating_at, t.finished_at))
            end as replies
     from ticket_trackings t
     where t.id in (
       select id from ticket_trackings
       where not metrics_backfill and ((first_reply_at is not null and first_response_s is null)
         or (coalesce(rating_at, finished_at) is not null and resolution_s is null))
       order by id limit $1 for update skip locked
     )`,
    [limit],
  );

export type TCycleFigures = {
  id: number;
  botUntil: Date | null;
  replies: number | null;
  firstResponseS: number | null;
  firstResponseBs: number | null;
  resolutionS: number | null;
  resolutionBs: number | null;
  botS: number | null;
  botBs: number | null;
};

/** writes computed figures, one statement for the batch */
export const writeCycleFigures = async (tx: TDbOrTx, rows: TCycleFigures[]) => {
  if (rows.length === 0) return;
  const col = <K extends keyof TCycleFigures>(key: K) => rows.map((r) => r[key]);
  await queryRows(
    tx,
    `update ticket_trackings t set bot_until = v.bot_until, replies = v.replies,
       first_response_s = v.frs, first_response_bs = v.frbs, resolution_s = v.rs, resolution_bs = v.rbs,
       bot_s = v.bs, bot_bs = v.bbs
     from unnest($1::int[], $2::timestamptz[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[])
       as v(id, bot_until, replies, frs, frbs, rs, rbs, bs, bbs)
     where t.id = v.id`,
    [
      col('id'),
      rows.map((r) => r.botUntil?.toISOString() ?? null),
      col('replies'),
      col('firstResponseS'),
      col('firstResponseBs'),
      col('resolutionS'),
      col('resolutionBs'),
      col('botS'),
      col('botBs'),
    ],
  );
};

export type TCompanyHours = { id: number; timezone: string; schedules: TScheduleRow[]; scheduleType: string };

/** what the calendars of these companies and queues are made of: zone, schedules, the `scheduleType` setting */
export const hoursOf = async (db: TDbOrTx, companyIds: number[], queueIds: number[]) => {
  const companies = await queryRows<TCompanyHours>(
    db,
    `select c.id, c.timezone, c.schedules,
            coalesce((select s.value from settings s where s.company_id = c.id and s.key = 'scheduleType'), 'disabled')
              as "scheduleType"
     from companies c where c.id = any($1::int[])`,
    [companyIds],
  );
  const queues = queueIds.length
    ? await queryRows<{ id: number; schedules: TScheduleRow[] }>(
        db,
        'select q.id, q.schedules from queues q where q.id = any($1::int[])',
        [queueIds],
      )
    : [];

  return { companies, queues };
};
