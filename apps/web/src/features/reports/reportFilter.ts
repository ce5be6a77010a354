import { REPORT_GROUPINGS, type TReportGrouping, V, ZReportQuery } from '@zelo/shared';

/**
 * The reports screen's filter, kept in the URL's search params so a report can be bookmarked and reloaded:
 * `?from=2025-03-01&to=2025-03-31&queueIds=1,2&userIds=3&whatsappIds=4&tagIds=5,6&groupBy=week&clock=wall`.
 * A missing day is the server's default window (the last 30 days up to today in the company's zone), a missing
 * list means every one, `groupBy` defaults to day and `clock` (which durations the screen shows) to business.
 */

export const CLOCKS = ['business', 'wall'] as const;
export type TClock = (typeof CLOCKS)[number];

export const ID_LISTS = ['queueIds', 'userIds', 'whatsappIds', 'tagIds'] as const;
export type TIdList = (typeof ID_LISTS)[number];

export type TReportFilter = {
  from: string | null;
  to: string | null;
  groupBy: TReportGrouping;
  clock: TClock;
} & Record<TIdList, number[]>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const dayOf = (value: string | null) => (value && DAY.test(value) ? value : null);

/** the ids of a list param (`1,2`), positive integers only, each once, ascending (one cache key per set) */
const idsOf = (value: string | null) =>
  [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((v) => Number(v.trim()))
        .filter((n) => Number.isInteger(n) && n > 0),
    ),
  ].sort((a, b) => a - b);

export const filterOfSearch = (search: URLSearchParams): TReportFilter => {
  const groupBy = search.get('groupBy');
  const clock = search.get('clock');

  return {
    from: dayOf(search.get('from')),
    to: dayOf(search.get('to')),
    groupBy: (REPORT_GROUPINGS as readonly string[]).includes(groupBy ?? '') ? (groupBy as TReportGrouping) : 'day',
    clock: clock === 'wall' ? 'wall' : 'business',
    queueIds: idsOf(search.get('queueIds')),
    userIds: idsOf(search.get('userIds')),
    whatsappIds: idsOf(search.get('whatsappIds')),
    tagIds: idsOf(search.get('tagIds')),
  };
};

/** the URL's search params of a filter: only what differs from the defaults */
export const searchOfFilter = (filter: TReportFilter): URLSearchParams => {
  const search = new URLSearchParams();
  if (filter.from) search.set('from', filter.from);
  if (filter.to) search.set('to', filter.to);
  for (const list of ID_LISTS) {
    if (filter[list].length) search.set(list, idsOf(filter[list].join(',')).join(','));
  }
  if (filter.groupBy !== 'day') search.set('groupBy', filter.groupBy);
  if (filter.clock !== 'business') search.set('clock', filter.clock);

  return search;
};

/**
 * The query of `GET /api/reports/*` for a filter (ZReportQuery): the days, each id list as `1,2` (zIdList reads a
 * comma list), the grouping. The clock is the screen's own choice and is not sent (every answer has both).
 */
export const reportParams = (filter: TReportFilter): Record<string, string> => {
  const params: Record<string, string> = {};
  if (filter.from) params.from = filter.from;
  if (filter.to) params.to = filter.to;
  for (const list of ID_LISTS) {
    if (filter[list].length) params[list] = filter[list].join(',');
  }
  params.groupBy = filter.groupBy;

  return params;
};

/** why the server would refuse the filter's window: `from` after `to`, or longer than the longest report */
export const windowError = (filter: TReportFilter): 'order' | 'tooLong' | null => {
  const parsed = ZReportQuery.safeParse(reportParams(filter));
  if (parsed.success) {
    return null;
  }

  return parsed.error.issues.some((issue) => issue.message === V.tooLong) ? 'tooLong' : 'order';
};
