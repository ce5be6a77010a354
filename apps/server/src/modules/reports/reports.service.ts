import {
  REPORT_COMMENTS_PAGE,
  REPORT_DEFAULT_DAYS,
  type TCsat,
  type TDurationStats,
  type TReportAgentRow,
  type TReportAgents,
  type TReportCsat,
  type TReportCsatQuery,
  type TReportGrouping,
  type TReportHeatmap,
  type TReportPoint,
  type TReportQuery,
  type TReportQueueRow,
  type TReportQueues,
  type TReportRowFigures,
  type TReportSeries,
  type TReportSummary,
  type TReportWindow,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { clockFormat, dayInZone } from '../../lib/dates';
import type { TAppContext } from '../../lib/context';
import { startOfDayIn } from '../dashboard/dashboard.service';
import {
  readBacklogAt,
  readComments,
  readGroupedFigures,
  readHeatmap,
  readNames,
  type TGroupKey,
  type TPartName,
  type TPartRow,
  type TReportFilters,
} from './reports.repo';

/**
 * The reports (ARCHITECTURE "Reports"): a window of whole days of the company's zone, its filters, and each
 * report built from the grouped figures of `reports.repo.ts`. Rates are 0–1, durations whole seconds. The screen,
 * the exports and the weekly e-mail all read these functions, so they show the same numbers.
 */

/** whose reports: the company and its zone (a signed-in admin's, or the weekly e-mail's) */
export type TReportScope = { companyId: number; timeZone: string };

const DAY_MS = 86_400_000;
const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** a zone Intl knows, else UTC (the zone goes into SQL as a value; this keeps it one PostgreSQL accepts) */
export const reportZone = (timeZone: string | null | undefined) =>
  timeZone && clockFormat(timeZone) ? timeZone : 'UTC';

/** the window's days (the last 30 up to today when not asked), its instants and its filters */
export const reportFilters = (scope: TReportScope, query: TReportQuery, now = new Date()) => {
  const timeZone = reportZone(scope.timeZone);
  const to = query.to ?? (query.from && query.from > dayInZone(now, timeZone) ? query.from : dayInZone(now, timeZone));
  const from = query.from ?? shiftDay(to, -(REPORT_DEFAULT_DAYS - 1));
  const filters: TReportFilters = {
    companyId: scope.companyId,
    from: startOfDayIn(from, timeZone),
    to: startOfDayIn(shiftDay(to, 1), timeZone),
    timeZone,
    queueIds: query.queueIds,
    userIds: query.userIds,
    whatsappIds: query.whatsappIds,
    tagIds: query.tagIds,
  };
  const window: TReportWindow = { from, to, timeZone, groupBy: query.groupBy ?? 'day' };

  return { filters, window };
};

const whole = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
const ratio = (part: number, total: number) => (total > 0 ? part / total : null);

const durationStats = (n: number | undefined, w: number[] | null | undefined, b: number[] | null | undefined) => ({
  count: n ?? 0,
  median: whole(w?.[0]),
  p90: whole(w?.[1]),
  medianBusiness: whole(b?.[0]),
  p90Business: whole(b?.[1]),
});

const NO_STATS: TDurationStats = durationStats(0, null, null);

const csatOf = (c?: { rated: number; r1: number; r2: number; r3: number }): TCsat => {
  const rated = c?.rated ?? 0;
  const satisfied = (c?.r2 ?? 0) + (c?.r3 ?? 0);

  return {
    rated,
    satisfied,
    score: ratio(satisfied, rated),
    distribution: { 1: c?.r1 ?? 0, 2: c?.r2 ?? 0, 3: c?.r3 ?? 0 },
  };
};

/** the figures of one key, from its parts */
const figuresOf = (
  parts: Partial<Record<TPartRow['part'], TPartRow['v']>>,
): TReportRowFigures & { botTime: TDurationStats } => {
  const o = parts.o as Extract<TPartRow, { part: 'o' }>['v'] | undefined;
  const f = parts.f as Extract<TPartRow, { part: 'f' }>['v'] | undefined;
  const r = parts.r as Extract<TPartRow, { part: 'r' }>['v'] | undefined;
  const c = parts.c as Extract<TPartRow, { part: 'c' }>['v'] | undefined;
  const resolved = r?.resolved ?? 0;

  return {
    opened: o?.opened ?? 0,
    resolved,
    firstResponse: f ? durationStats(f.fn, f.fw, f.fb) : NO_STATS,
    resolution: r ? durationStats(r.rn, r.rw, r.rb) : NO_STATS,
    botTime: r ? durationStats(r.bn, r.bw, r.bb) : NO_STATS,
    repliesPerConversation: r?.replies === null || r?.replies === undefined ? null : Math.round(r.replies * 10) / 10,
    reopened: r?.reopened ?? 0,
    reopenRate: ratio(r?.reopened ?? 0, resolved),
    botResolved: r?.bot_resolved ?? 0,
    botResolvedShare: ratio(r?.bot_resolved ?? 0, resolved),
    csat: csatOf(c),
    sla: {
      firstResponse: { decided: o?.sfn ?? 0, met: o?.sfm ?? 0, share: ratio(o?.sfm ?? 0, o?.sfn ?? 0) },
      resolution: { decided: o?.srn ?? 0, met: o?.srm ?? 0, share: ratio(o?.srm ?? 0, o?.srn ?? 0) },
    },
  };
};

/** the parts grouped by key (null keys as '') */
const byKey = (rows: TPartRow[]) => {
  const keys = new Map<string, Partial<Record<TPartRow['part'], TPartRow['v']>>>();
  for (const row of rows) {
    const key = row.k ?? '';
    const entry = keys.get(key) ?? {};
    entry[row.part] = row.v;
    keys.set(key, entry);
  }

  return keys;
};

const grouped = async (
  db: TDbOrTx,
  filters: TReportFilters,
  group: TGroupKey,
  grouping?: TReportGrouping,
  only?: readonly TPartName[],
) => byKey(await readGroupedFigures(db, filters, group, grouping, only));

export const reportSummary = async (db: TDbOrTx, scope: TReportScope, query: TReportQuery): Promise<TReportSummary> => {
  const { filters, window } = reportFilters(scope, query);
  const [parts, backlog] = await Promise.all([grouped(db, filters, 'none'), readBacklogAt(db, filters, filters.to)]);
  const { opened, resolved, firstResponse, resolution, botTime, repliesPerConversation, csat, sla, ...rates } =
    figuresOf(parts.get('0') ?? {});

  return {
    window,
    opened,
    resolved,
    firstResponse,
    resolution,
    botTime,
    repliesPerConversation,
    reopened: rates.reopened,
    reopenRate: rates.reopenRate,
    botResolved: rates.botResolved,
    botResolvedShare: rates.botResolvedShare,
    backlog,
    csat,
    sla,
  };
};

/** the first day of each bucket of the window (weeks start on Monday, as PostgreSQL's date_trunc) */
export const bucketsOf = (from: string, to: string, grouping: TReportGrouping) => {
  const start = new Date(`${from}T00:00:00Z`);
  if (grouping === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  if (grouping === 'month') start.setUTCDate(1);
  const end = Date.parse(`${to}T00:00:00Z`);
  const buckets: string[] = [];
  for (const day = start; day.getTime() <= end; ) {
    buckets.push(day.toISOString().slice(0, 10));
    if (grouping === 'day') day.setUTCDate(day.getUTCDate() + 1);
    else if (grouping === 'week') day.setUTCDate(day.getUTCDate() + 7);
    else day.setUTCMonth(day.getUTCMonth() + 1);
  }

  return buckets;
};

export const reportSeries = async (db: TDbOrTx, scope: TReportScope, query: TReportQuery): Promise<TReportSeries> => {
  const { filters, window } = reportFilters(scope, query);
  const [parts, initial] = await Promise.all([
    grouped(db, filters, 'bucket', window.groupBy, ['o', 'f', 'r']),
    readBacklogAt(db, filters, filters.from),
  ]);
  let backlog = initial;
  const points: TReportPoint[] = bucketsOf(window.from, window.to, window.groupBy).map((bucket) => {
    const { opened, resolved, firstResponse, resolution } = figuresOf(parts.get(bucket) ?? {});
    backlog += opened - resolved;

    return { bucket, opened, resolved, backlog, firstResponse, resolution };
  });

  return { window, points };
};

export const reportHeatmap = async (db: TDbOrTx, scope: TReportScope, query: TReportQuery): Promise<TReportHeatmap> => {
  const { filters, window } = reportFilters(scope, query);
  const cells = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  let max = 0;
  for (const { d, h, n } of await readHeatmap(db, filters)) {
    cells[d - 1]![h] = n;
    max = Math.max(max, n);
  }

  return { window, cells, max };
};

/** rows with anything in the window, most resolutions first, then by name */
const rowOrder = (a: TReportRowFigures & { name: string }, b: TReportRowFigures & { name: string }) =>
  b.resolved - a.resolved || b.opened - a.opened || a.name.localeCompare(b.name);

const withoutBotTime = ({ botTime: _, ...figures }: ReturnType<typeof figuresOf>): TReportRowFigures => figures;

export const reportAgents = async (db: TDbOrTx, scope: TReportScope, query: TReportQuery): Promise<TReportAgents> => {
  const { filters, window } = reportFilters(scope, query);
  const [parts, names] = await Promise.all([grouped(db, filters, 'user'), readNames(db, scope.companyId)]);
  const nameOf = new Map(names.users.map((u) => [String(u.id), u.name]));
  const rows: TReportAgentRow[] = [...parts.entries()].map(([key, p]) => ({
    userId: key === '' ? null : Number(key),
    name: key === '' ? '' : (nameOf.get(key) ?? ''),
    ...withoutBotTime(figuresOf(p)),
  }));

  return { window, rows: rows.sort(rowOrder) };
};

export const reportQueues = async (db: TDbOrTx, scope: TReportScope, query: TReportQuery): Promise<TReportQueues> => {
  const { filters, window } = reportFilters(scope, query);
  const [parts, names] = await Promise.all([grouped(db, filters, 'queue'), readNames(db, scope.companyId)]);
  const queueOf = new Map(names.queues.map((q) => [String(q.id), q]));
  const rows: TReportQueueRow[] = [...parts.entries()].map(([key, p]) => ({
    queueId: key === '' ? null : Number(key),
    name: key === '' ? '' : (queueOf.get(key)?.name ?? ''),
    color: queueOf.get(key)?.color ?? null,
    ...withoutBotTime(figuresOf(p)),
  }));

  return { window, rows: rows.sort(rowOrder) };
};

export const reportCsat = async (db: TDbOrTx, scope: TReportScope, query: TReportCsatQuery): Promise<TReportCsat> => {
  const { filters, window } = reportFilters(scope, query);
  const page = query.pageNumber ?? 1;
  const [parts, comments] = await Promise.all([
    grouped(db, filters, 'none', 'day', ['c']),
    readComments(db, filters, REPORT_COMMENTS_PAGE, (page - 1) * REPORT_COMMENTS_PAGE),
  ]);
  const count = comments[0]?.total ?? 0;

  return {
    window,
    ...figuresOf(parts.get('0') ?? {}).csat,
    comments: comments.map((c) => ({
      ratingId: c.id,
      ticketId: c.ticket_id,
      rate: c.rate,
      comment: c.comment,
      createdAt: c.created_at,
      contactName: c.contact_name ?? '',
      userName: c.user_name,
    })),
    count,
    hasMore: page * REPORT_COMMENTS_PAGE < count,
  };
};

/**
 * A report's answer as the JSON bytes sent, kept in the ticket lists' store until the company's next announced
 * change (3 s at most): the admins looking at the same window share one read.
 */
export const keptReport = (
  ctx: TAppContext,
  scope: TReportScope,
  name: string,
  query: unknown,
  load: () => Promise<unknown>,
) =>
  ctx.listAnswers.answer(scope.companyId, `reports ${name} ${scope.timeZone} ${JSON.stringify(query)}`, async () =>
    Buffer.from(JSON.stringify(await load())),
  );
