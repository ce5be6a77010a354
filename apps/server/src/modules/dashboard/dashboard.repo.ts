import { queryRows } from '../../db/statements';
import type { TDbOrTx } from '../../db/client';

/**
 * The dashboard's reads over the rollup (migration 0014, ARCHITECTURE "Dashboard rollup") of ONE company. A window
 * is a half-open instant range [from, to); each is cut into UTC day, hour and 15-minute buckets plus, where a bound
 * is not on a 15-minute mark, the raw rows of the partial quarter-hours. A bucket is read as the folded rollup row
 * plus the deltas not folded yet, in the same statement (one snapshot), so the answer is exact whether or not the
 * fold has run.
 */

export type TWindow = { from: Date; to: Date };
/** a window whose figures are added under `label` (several windows may share one) */
export type TLabeledWindow = TWindow & { label: number };

/** bucket widths in minutes, widest first; 0 marks the raw rows of a partial quarter-hour */
const SPANS = [1440, 60, 15];
const MINUTE_MS = 60_000;

type TRanges = { labels: number[]; spans: number[]; los: string[]; his: string[] };

/** [lo, hi) as whole buckets of the widest tier that fits, the rest by the narrower tiers, then raw rows */
const cutWindow = (ranges: TRanges, label: number, lo: number, hi: number, level = 0) => {
  if (lo >= hi) return;
  const push = (span: number, a: number, b: number) => {
    ranges.labels.push(label);
    ranges.spans.push(span);
    ranges.los.push(new Date(a).toISOString());
    ranges.his.push(new Date(b).toISOString());
  };
  if (level === SPANS.length) {
    push(0, lo, hi);
    return;
  }
  const width = SPANS[level] * MINUTE_MS;
  const a = Math.ceil(lo / width) * width;
  const b = Math.floor(hi / width) * width;
  if (a >= b) {
    cutWindow(ranges, label, lo, hi, level + 1);
    return;
  }
  push(SPANS[level], a, b);
  cutWindow(ranges, label, lo, a, level + 1);
  cutWindow(ranges, label, b, hi, level + 1);
};

/** what the rollup sums; durations in microseconds */
export type TFigures = {
  created: number;
  waits: number;
  waitUs: number;
  finished: number;
  supports: number;
  supportUs: number;
  ratings: number;
  ratingSum: number;
  leads: number;
};

export const NO_FIGURES: TFigures = {
  created: 0,
  waits: 0,
  waitUs: 0,
  finished: 0,
  supports: 0,
  supportUs: 0,
  ratings: 0,
  ratingSum: 0,
  leads: 0,
};

const FIGURE_COLUMNS = 'created, waits, wait_us, finished, supports, support_us, ratings, rating_sum, leads';

/**
 * $1 company, $2–$5 the ranges (label, span, lo, hi), $6 the company's totals wanted (user 0), $7 its attendants'
 * rows wanted, $8/$9 the ranges' outer bounds (the deltas' index range). The rollup is read per range and user
 * (its key is company, span, user, bucket); the raw rows of a partial quarter-hour through the same
 * `dashboard_events()` the triggers use.
 */
export const FIGURES_SQL = `
with r as (
  select * from unnest($2::int[], $3::int[], $4::timestamptz[], $5::timestamptz[]) as r(label, span, lo, hi)
), who as (
  select 0 as user_id where $6::boolean
  union all
  select id from users where company_id = $1 and $7::boolean
)
select f.label, f.user_id, sum(f.created)::float8 as created, sum(f.waits)::float8 as waits,
  sum(f.wait_us)::float8 as wait_us, sum(f.finished)::float8 as finished, sum(f.supports)::float8 as supports,
  sum(f.support_us)::float8 as support_us, sum(f.ratings)::float8 as ratings,
  sum(f.rating_sum)::float8 as rating_sum, sum(f.leads)::float8 as leads
from (
  select r.label, who.user_id, x.*
  from r cross join who cross join lateral (
    select ${FIGURE_COLUMNS.replace(/(\w+)/g, 'sum($1) as $1')}
    from dashboard_rollup
    where company_id = $1 and span = r.span and user_id = who.user_id and bucket >= r.lo and bucket < r.hi
  ) x
  where r.span > 0
  union all
  select r.label, d.user_id, ${FIGURE_COLUMNS.replace(/(\w+)/g, 'd.$1')}
  from dashboard_deltas d
  join r on r.span > 0 and d.bucket >= r.lo and d.bucket < r.hi
  where d.company_id = $1 and d.bucket >= $8::timestamptz and d.bucket < $9::timestamptz
    and d.user_id in (select user_id from who)
  union all
  select r.label, e.user_id, ${FIGURE_COLUMNS.replace(/(\w+)/g, 'e.$1')}
  from r cross join lateral (
    select e.* from ticket_trackings t, dashboard_events(t) e
    where t.company_id = $1 and ((t.created_at >= r.lo and t.created_at < r.hi)
      or (t.started_at >= r.lo and t.started_at < r.hi) or (t.finished_at >= r.lo and t.finished_at < r.hi))
    union all
    select e.* from user_ratings g, dashboard_events(g) e
    where g.company_id = $1 and g.user_id in (select user_id from who) and g.created_at >= r.lo and g.created_at < r.hi
    union all
    select e.* from contacts c, dashboard_events(c) e
    where c.company_id = $1 and c.created_at >= r.lo and c.created_at < r.hi
  ) e
  where r.span = 0 and e.at >= r.lo and e.at < r.hi and e.user_id in (select user_id from who)
) f
group by f.label, f.user_id`;

type TFiguresRow = Record<'label' | 'user_id' | 'created' | 'waits' | 'wait_us' | 'finished', number> &
  Record<'supports' | 'support_us' | 'ratings' | 'rating_sum' | 'leads', number>;

/** FIGURES_SQL's parameters for these windows (at least one), or null when they hold no instant */
const figuresParams = (companyId: number, windows: TLabeledWindow[], who: { totals: boolean; attendants: boolean }) => {
  const ranges: TRanges = { labels: [], spans: [], los: [], his: [] };
  for (const w of windows) cutWindow(ranges, w.label, w.from.getTime(), w.to.getTime());
  if (ranges.labels.length === 0) return null;

  return figuresParamsOf(companyId, windows, who, ranges);
};

const figuresParamsOf = (
  companyId: number,
  windows: TLabeledWindow[],
  who: { totals: boolean; attendants: boolean },
  ranges: TRanges,
) => {
  const outer = (pick: (w: TWindow) => Date, pickOf: (...n: number[]) => number) =>
    new Date(pickOf(...windows.map((w) => pick(w).getTime()))).toISOString();

  return [
    companyId,
    ranges.labels,
    ranges.spans,
    ranges.los,
    ranges.his,
    who.totals,
    who.attendants,
    outer((w) => w.from, Math.min),
    outer((w) => w.to, Math.max),
  ];
};

/** FIGURES_SQL's rows per label then user id */
const figuresByLabel = (rows: TFiguresRow[]) => {
  const byLabel = new Map<number, Map<number, TFigures>>();
  for (const r of rows) {
    const label = Number(r.label);
    const users = byLabel.get(label) ?? new Map<number, TFigures>();
    byLabel.set(label, users);
    users.set(Number(r.user_id), {
      created: Number(r.created),
      waits: Number(r.waits),
      waitUs: Number(r.wait_us),
      finished: Number(r.finished),
      supports: Number(r.supports),
      supportUs: Number(r.support_us),
      ratings: Number(r.ratings),
      ratingSum: Number(r.rating_sum),
      leads: Number(r.leads),
    });
  }

  return byLabel;
};

/**
 * The figures of each labelled window, per label then user id (0 = the company's totals, when `totals`; the
 * company's users, when `attendants`). Labels and users with nothing are absent.
 */
export const readFigures = async (
  db: TDbOrTx,
  companyId: number,
  windows: TLabeledWindow[],
  who: { totals: boolean; attendants: boolean },
) => {
  const params = figuresParams(companyId, windows, who);

  return figuresByLabel(params ? await queryRows<TFiguresRow>(db, FIGURES_SQL, params) : []);
};

export type TCompanyUser = { id: number; name: string; online: boolean };

/**
 * the company's users by name and, with `now`, its open and pending tickets now (flow test tickets left out: the
 * partial index `tickets_active_count_idx` answers both counts alone), as columns beside the figures
 */
const USERS_AND_NOW = (now: boolean) => `,
  (select coalesce(json_agg(json_build_object('id', u.id, 'name', u.name, 'online', u.online)
      order by lower(u.name), u.id), '[]'::json)
    from users u where u.company_id = $1) as users${
      now
        ? `,
  (select count(*) from tickets where company_id = $1 and status = 'open' and not is_test)::int as happening,
  (select count(*) from tickets where company_id = $1 and status = 'pending' and not is_test)::int as pending`
        : ''
    }`;

const WITH_USERS_SQL = (now: boolean) =>
  `select (select coalesce(json_agg(f), '[]'::json) from (${FIGURES_SQL}) f) as figures${USERS_AND_NOW(now)}`;
const FIGURES_USERS_SQL = WITH_USERS_SQL(false);
const FIGURES_USERS_NOW_SQL = WITH_USERS_SQL(true);

/**
 * readFigures for one or more windows, the company's users by name and, with `now`, its open and pending tickets
 * now, in one statement (one round trip and one snapshot: a computed dashboard's whole read)
 */
export const readFiguresAndUsers = async (
  db: TDbOrTx,
  companyId: number,
  windows: TLabeledWindow[],
  who: { totals: boolean; attendants: boolean },
  opts: { now: boolean },
) => {
  // windows without an instant read no figures (no ranges), the users and counts still
  const params =
    figuresParams(companyId, windows, who) ??
    figuresParamsOf(companyId, windows, who, { labels: [], spans: [], los: [], his: [] });
  const [row] = await queryRows<{
    figures: TFiguresRow[];
    users: { id: number; name: string; online: boolean | null }[];
    happening?: number;
    pending?: number;
  }>(db, opts.now ? FIGURES_USERS_NOW_SQL : FIGURES_USERS_SQL, params);

  return {
    figures: figuresByLabel(row.figures),
    users: row.users.map((u): TCompanyUser => ({ id: Number(u.id), name: String(u.name), online: u.online === true })),
    now: { happening: Number(row.happening ?? 0), pending: Number(row.pending ?? 0) },
  };
};

/**
 * Cycles created per calendar day of a zone in [from, to) (both local midnights), by the rollup's tier of `span`
 * minutes (60 when every local midnight in the window falls on a whole UTC hour, else 15: each bucket then lies in
 * one local day) plus the deltas not folded yet. Days without any are absent.
 */
export const createdPerDay = async (db: TDbOrTx, companyId: number, w: TWindow, timeZone: string, span: 15 | 60) => {
  const rows = await queryRows<{ day: string; n: number }>(
    db,
    `select to_char((x.bucket at time zone $2)::date, 'YYYY-MM-DD') as day, sum(x.created)::float8 as n
     from (
       select bucket, created from dashboard_rollup
       where company_id = $1 and span = $3 and user_id = 0 and bucket >= $4::timestamptz and bucket < $5::timestamptz
       union all
       select bucket, created from dashboard_deltas
       where company_id = $1 and user_id = 0 and bucket >= $4::timestamptz and bucket < $5::timestamptz
     ) x
     group by 1`,
    [companyId, timeZone, span, w.from.toISOString(), w.to.toISOString()],
  );

  return new Map(rows.map((r) => [String(r.day), Number(r.n)]));
};

/** moves up to `batch` deltas into the rollup; answers how many it moved (see `dashboard_fold()`) */
export const foldDeltas = async (db: TDbOrTx, batch: number) => {
  const [row] = await queryRows<{ n: number }>(db, 'select dashboard_fold($1::int) as n', [batch]);

  return Number(row.n);
};
