import type { TReportGrouping } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { queryRows, SqlParams } from '../../db/statements';

/**
 * The reports' reads of ONE company, over its attendance cycles (`ticket_trackings` with their metrics, migration
 * 0018) and ratings. Each figure is counted at its own event's time, inside the window [from, to):
 * - opened: the cycle's start (`created_at`, index `(company_id, created_at)`), with the service-level outcome of
 *   those cycles (`sla_*_met`, copied from the ticket when decided);
 * - first response: the first agent reply (`first_reply_at`, index `(company_id, first_reply_at)`);
 * - resolution, replies, reopenings, bot-resolved, bot time: the resolution (`coalesce(rating_at, finished_at)`,
 *   expression index `ticket_trackings_company_resolved_idx`);
 * - satisfaction: the rating's `created_at` (`user_ratings_company_user_idx` is by user; ratings are few).
 * Flow test tickets (`tickets.is_test`) are left out: a hashed list of the company's few (`tickets_test_idx`).
 * The filters (queue, agent, connection, tag) apply to the cycle; the agent is the one of each event: the
 * cycle's agent for openings and resolutions, who replied for first responses, the rated agent for ratings.
 * One statement per report: the four parts grouped by the same key, answered as (part, key, figures) rows.
 */

export type TReportFilters = {
  companyId: number;
  from: Date;
  to: Date;
  timeZone: string;
  queueIds?: number[];
  userIds?: number[];
  whatsappIds?: number[];
  tagIds?: number[];
};

export type TGroupKey = 'none' | 'user' | 'queue' | 'bucket';

type TPart = 'opened' | 'first' | 'resolved' | 'rated';
const EVENT_AT: Record<TPart, string> = {
  opened: 't.created_at',
  first: 't.first_reply_at',
  resolved: 'coalesce(t.rating_at, t.finished_at)',
  rated: 'ur.created_at',
};
const AGENT_OF: Record<TPart, string> = {
  opened: 't.user_id',
  first: 't.first_reply_user_id',
  resolved: 't.user_id',
  rated: 'ur.user_id',
};

/** the cycle filters of one part, and its window on the event's time */
const whereOf = (p: SqlParams, f: TReportFilters, part: TPart) => {
  const at = EVENT_AT[part];
  const conditions = [
    `t.company_id = ${p.fixed(f.companyId, 'int')}`,
    `${at} >= ${p.fixed(f.from.toISOString(), 'timestamptz')}`,
    `${at} < ${p.fixed(f.to.toISOString(), 'timestamptz')}`,
    // a flow test run's ticket has no cycle of its own, but a person who takes it makes one (`updateTicket`): left out
    `t.ticket_id not in (select x.id from tickets x where x.company_id = ${p.fixed(f.companyId, 'int')} and x.is_test)`,
  ];
  if (part === 'rated') conditions.unshift(`ur.company_id = ${p.fixed(f.companyId, 'int')}`);
  if (f.queueIds?.length) conditions.push(p.anyOf('t.queue_id', f.queueIds, 'int'));
  if (f.userIds?.length) conditions.push(p.anyOf(AGENT_OF[part], f.userIds, 'int'));
  if (f.whatsappIds?.length) conditions.push(p.anyOf('t.whatsapp_id', f.whatsappIds, 'int'));
  if (f.tagIds?.length)
    conditions.push(
      `exists (select 1 from ticket_tags g where g.ticket_id = t.ticket_id and ${p.anyOf('g.tag_id', f.tagIds, 'int')})`,
    );

  return conditions.join(' and ');
};

const PERCENTILES = 'array[0.5, 0.9]::float8[]';
const stats = (column: string, prefix: string) =>
  `count(${column})::int as ${prefix}n,
   percentile_cont(${PERCENTILES}) within group (order by ${column}) as ${prefix}w,
   percentile_cont(${PERCENTILES}) within group (order by ${column.replace(/_s$/, '_bs')}) as ${prefix}b`;

const keyOf = (p: SqlParams, group: TGroupKey, part: TPart, grouping: TReportGrouping, timeZone: string) => {
  if (group === 'none') return `0`;
  if (group === 'user') return AGENT_OF[part];
  if (group === 'queue') return 't.queue_id';
  const unit = p.value(grouping, 'text');

  // grouped (and sorted) as a timestamp; written as its day only in the answer (readGroupedFigures)
  return `date_trunc(${unit}, ${EVENT_AT[part]} at time zone ${p.value(timeZone, 'text')})`;
};

export type TStatsCells = { n: number; w: number[] | null; b: number[] | null };
export type TPartRow =
  | { part: 'o'; k: string | null; v: { opened: number; sfn: number; sfm: number; srn: number; srm: number } }
  | { part: 'f'; k: string | null; v: { fn: number; fw: number[] | null; fb: number[] | null } }
  | {
      part: 'r';
      k: string | null;
      v: {
        resolved: number;
        rn: number;
        rw: number[] | null;
        rb: number[] | null;
        bn: number;
        bw: number[] | null;
        bb: number[] | null;
        replies: number | null;
        reopened: number;
        bot_resolved: number;
      };
    }
  | { part: 'c'; k: string | null; v: { rated: number; r1: number; r2: number; r3: number } };

export type TPartName = TPartRow['part'];

/** the parts of a report (all four unless `only` names some) grouped by `group` (a bucket of `grouping` for the series) */
export const readGroupedFigures = async (
  db: TDbOrTx,
  f: TReportFilters,
  group: TGroupKey,
  grouping: TReportGrouping = 'day',
  only: readonly TPartName[] = ['o', 'f', 'r', 'c'],
) => {
  const p = new SqlParams();
  const key = (part: TPart) => keyOf(p, group, part, grouping, f.timeZone);
  const ctes: Record<TPartName, () => string> = {
    o: () => `o as (
      select ${key('opened')} as k, count(*)::int as opened,
             count(t.sla_first_response_met)::int as sfn, count(*) filter (where t.sla_first_response_met)::int as sfm,
             count(t.sla_resolution_met)::int as srn, count(*) filter (where t.sla_resolution_met)::int as srm
      from ticket_trackings t where ${whereOf(p, f, 'opened')} group by 1
    )`,
    f: () => `f as (
      select ${key('first')} as k, ${stats('t.first_response_s', 'f')}
      from ticket_trackings t where ${whereOf(p, f, 'first')} group by 1
    )`,
    r: () => `r as (
      select ${key('resolved')} as k, count(*)::int as resolved, ${stats('t.resolution_s', 'r')}, ${stats('t.bot_s', 'b')},
             avg(t.replies)::float8 as replies,
             count(*) filter (where t.reopened_at is not null)::int as reopened,
             count(*) filter (where t.human_at is null and t.first_reply_at is null and t.bot_until is not null)::int
               as bot_resolved
      from ticket_trackings t where ${whereOf(p, f, 'resolved')} group by 1
    )`,
    c: () => `c as (
      select ${key('rated')} as k, count(*)::int as rated, count(*) filter (where ur.rate = 1)::int as r1,
             count(*) filter (where ur.rate = 2)::int as r2, count(*) filter (where ur.rate = 3)::int as r3
      from user_ratings ur join ticket_trackings t on t.id = ur.ticket_tracking_id
      where ${whereOf(p, f, 'rated')} group by 1
    )`,
  };
  const keyText = group === 'bucket' ? `to_char(k, 'YYYY-MM-DD')` : 'k::text';
  const text = `with ${only.map((part) => ctes[part]()).join(', ')}
    ${only.map((part) => `select '${part}' as part, ${keyText} as k, to_jsonb(${part}) - 'k' as v from ${part}`).join(' union all ')}`;
  const statement = p.render(text);

  return queryRows<TPartRow>(db, statement.text, statement.values, { shape: true });
};

/** cycles not resolved at `at` (started before it, resolved at or after it or not at all) */
export const readBacklogAt = async (db: TDbOrTx, f: TReportFilters, at: Date) => {
  const p = new SqlParams();
  const where = whereOf(p, { ...f, from: new Date(0), to: at }, 'opened');
  const atValue = p.fixed(at.toISOString(), 'timestamptz');
  const statement = p.render(
    `select count(*)::int as n from ticket_trackings t
     where ${where} and (coalesce(t.rating_at, t.finished_at) >= ${atValue} or coalesce(t.rating_at, t.finished_at) is null)`,
  );

  return (await queryRows<{ n: number }>(db, statement.text, statement.values, { shape: true }))[0]?.n ?? 0;
};

/** conversations started per ISO weekday (1 Monday … 7 Sunday) and hour, in the company's zone */
export const readHeatmap = async (db: TDbOrTx, f: TReportFilters) => {
  const p = new SqlParams();
  const zone = p.value(f.timeZone, 'text');
  const statement = p.render(
    `select extract(isodow from t.created_at at time zone ${zone})::int as d,
            extract(hour from t.created_at at time zone ${zone})::int as h, count(*)::int as n
     from ticket_trackings t where ${whereOf(p, f, 'opened')} group by 1, 2`,
  );

  return queryRows<{ d: number; h: number; n: number }>(db, statement.text, statement.values, { shape: true });
};

export type TCommentRow = {
  id: number;
  ticket_id: number;
  rate: number;
  comment: string;
  created_at: string;
  contact_name: string | null;
  user_name: string | null;
  total: number;
};

/**
 * The ratings of the window that carry a comment (the customer's words after the rating, `user_ratings.comment`;
 * read through `to_jsonb` so the report stands whether or not the comment step is installed), newest first.
 */
export const readComments = async (db: TDbOrTx, f: TReportFilters, limit: number, offset: number) => {
  const p = new SqlParams();
  const statement = p.render(
    `select ur.id, ur.ticket_id, ur.rate, to_jsonb(ur) ->> 'comment' as comment, ur.created_at,
            c.name as contact_name, u.name as user_name, count(*) over ()::int as total
     from user_ratings ur
     join ticket_trackings t on t.id = ur.ticket_tracking_id
     join tickets k on k.id = ur.ticket_id
     left join contacts c on c.id = k.contact_id
     left join users u on u.id = ur.user_id
     where ${whereOf(p, f, 'rated')} and coalesce(to_jsonb(ur) ->> 'comment', '') <> ''
     order by ur.created_at desc, ur.id desc
     limit ${Math.max(1, Math.floor(limit))} offset ${Math.max(0, Math.floor(offset))}`,
  );

  return queryRows<TCommentRow>(db, statement.text, statement.values, { shape: true, isoTimestamps: true });
};

/** the names of the company's users and queues (for the tables' rows) */
export const readNames = async (db: TDbOrTx, companyId: number) => {
  const users = await queryRows<{ id: number; name: string }>(
    db,
    'select id, name from users where company_id = $1 order by name',
    [companyId],
  );
  const queues = await queryRows<{ id: number; name: string; color: string }>(
    db,
    'select id, name, color from queues where company_id = $1 order by name',
    [companyId],
  );

  return { users, queues };
};

/** the names of the company's connections (the conversations export) */
export const readConnectionNames = async (db: TDbOrTx, companyId: number) =>
  queryRows<{ id: number; name: string }>(db, 'select id, name from whatsapps where company_id = $1', [companyId]);

/** the language a user reads (its own choice, else its company's), and where its mail goes */
export const readReader = async (db: TDbOrTx, companyId: number, userId: number) =>
  (
    await queryRows<{ email: string; language: string | null; company_language: string }>(
      db,
      `select u.email, u.language, c.language as company_language
       from users u join companies c on c.id = u.company_id where u.company_id = $1 and u.id = $2`,
      [companyId, userId],
    )
  )[0];

/** one conversation of the export: its cycle's facts; the times as the company's wall clock */
export type TCycleFacts = {
  id: number;
  /** the cycle's start as PostgreSQL writes it (the next page's key, exact to the microsecond) */
  at: string;
  ticket_id: number;
  uuid: string;
  contact: string | null;
  queue_id: number | null;
  user_id: number | null;
  whatsapp_id: number | null;
  started: string;
  first_reply: string | null;
  resolved: string | null;
  frs: number | null;
  frbs: number | null;
  rs: number | null;
  rbs: number | null;
  replies: number | null;
  reopened: boolean;
  bs: number | null;
  bbs: number | null;
  rate: number | null;
  comment: string | null;
};

/** where a page of the export starts: after this cycle (`at` and `id` of the previous page's last row) */
export type TCycleKey = { at: string; id: number };
export const FIRST_CYCLE: TCycleKey = { at: '-infinity', id: 0 };

/**
 * One page of the conversations export: the cycles started in the window (the summary's "opened", same filters),
 * in start order, after `after` (keyset: each page is one short indexed read, however deep into the window).
 */
export const readCycleFacts = async (db: TDbOrTx, f: TReportFilters, after: TCycleKey, limit: number) => {
  const p = new SqlParams();
  const zone = p.value(f.timeZone, 'text');
  const local = (column: string) => `to_char(${column} at time zone ${zone}, 'YYYY-MM-DD HH24:MI:SS')`;
  const where = whereOf(p, f, 'opened');
  const afterAt = p.value(after.at, 'timestamptz');
  const statement = p.render(
    `select t.id, t.created_at::text as at, k.id as ticket_id, k.uuid::text as uuid, c.name as contact,
            t.queue_id, t.user_id, t.whatsapp_id, ${local('t.created_at')} as started,
            ${local('t.first_reply_at')} as first_reply, ${local('coalesce(t.rating_at, t.finished_at)')} as resolved,
            t.first_response_s as frs, t.first_response_bs as frbs, t.resolution_s as rs, t.resolution_bs as rbs,
            t.replies, t.reopened_at is not null as reopened, t.bot_s as bs, t.bot_bs as bbs,
            ur.rate, ur.comment
     from ticket_trackings t
     join tickets k on k.id = t.ticket_id and k.company_id = t.company_id
     left join contacts c on c.id = k.contact_id
     left join user_ratings ur on ur.ticket_tracking_id = t.id
     where ${where} and t.created_at >= ${afterAt} and (t.created_at, t.id) > (${afterAt}, ${p.value(after.id, 'int')})
     order by t.created_at, t.id
     limit ${Math.max(1, Math.floor(limit))}`,
  );

  // planned for each page's key (unnamed), a precaution: the plan starts the index range at the key it sees
  return queryRows<TCycleFacts>(db, statement.text, statement.values, { unnamed: true });
};
