import { QueryClient } from '@tanstack/react-query';
import type {
  TDurationStats,
  TReportAgents,
  TReportCsat,
  TReportHeatmap,
  TReportQueues,
  TReportRowFigures,
  TReportSeries,
  TReportSummary,
  TReportWindow,
} from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';
import { filterOfSearch, reportParams } from './reportFilter';
import { csatKey, reportKey } from './reportsApi';

/** Server-side renders (no DOM) of /reports from cached answers, under the query keys the URL's filter makes. */
beforeAll(() => stubLocalStorage());

const WINDOW: TReportWindow = { from: '2025-03-03', to: '2025-03-09', timeZone: 'America/Sao_Paulo', groupBy: 'week' };
const stats = (median: number | null, p90: number | null, medianBusiness: number | null, p90Business: number | null) =>
  ({ count: median === null ? 0 : 4, median, p90, medianBusiness, p90Business }) satisfies TDurationStats;
const NONE = stats(null, null, null, null);
const csat = (r1: number, r2: number, r3: number) => ({
  rated: r1 + r2 + r3,
  satisfied: r2 + r3,
  score: r1 + r2 + r3 ? (r2 + r3) / (r1 + r2 + r3) : null,
  distribution: { 1: r1, 2: r2, 3: r3 },
});

const summary: TReportSummary = {
  window: WINDOW,
  opened: 1234,
  resolved: 8,
  firstResponse: stats(600, 1800, 200, 900),
  resolution: stats(90_000, 200_000, 7_500, 100_800),
  botTime: NONE,
  repliesPerConversation: 2.5,
  reopened: 1,
  reopenRate: 0.125,
  botResolved: 2,
  botResolvedShare: 0.25,
  backlog: 5,
  csat: csat(1, 1, 2),
  sla: { firstResponse: { decided: 8, met: 6, share: 0.75 }, resolution: { decided: 4, met: 4, share: 1 } },
};
const row = (fields: Partial<TReportRowFigures>): TReportRowFigures => ({
  opened: 3,
  resolved: 2,
  firstResponse: stats(610, 1210, 45, 130),
  resolution: stats(3_600, 7_200, 3_000, 5_000),
  repliesPerConversation: 1.5,
  reopened: 0,
  reopenRate: 0,
  botResolved: 0,
  botResolvedShare: 0,
  csat: csat(0, 1, 1),
  sla: { firstResponse: { decided: 2, met: 1, share: 0.5 }, resolution: { decided: 0, met: 0, share: null } },
  ...fields,
});
const series: TReportSeries = {
  window: WINDOW,
  points: [
    {
      bucket: '2025-03-03',
      opened: 6,
      resolved: 4,
      backlog: 3,
      firstResponse: stats(600, 1800, 200, 900),
      resolution: stats(3_600, 7_200, 3_000, 5_000),
    },
  ],
};
const cells = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
cells[0]![10] = 4;
cells[6]![23] = 1;
const heatmap: TReportHeatmap = { window: WINDOW, cells, max: 4 };
const agents: TReportAgents = {
  window: WINDOW,
  rows: [
    { userId: 7, name: 'Bruno', ...row({}) },
    { userId: null, name: '', ...row({ opened: 1, resolved: 1, firstResponse: NONE }) },
  ],
};
const queues: TReportQueues = {
  window: WINDOW,
  rows: [{ queueId: 4, name: 'Vendas', color: '#ff0000', ...row({ reopenRate: 0.5 }) }],
};
const csatAnswer: TReportCsat = {
  window: WINDOW,
  ...csat(1, 1, 2),
  comments: [
    {
      ratingId: 31,
      ticketId: 9,
      rate: 3,
      comment: 'Very quick, thanks!',
      createdAt: '2025-03-04T13:00:00.000Z',
      contactName: 'Carla',
      userName: 'Bruno',
    },
  ],
  count: 21,
  hasMore: true,
};

const SEARCH = 'from=2025-03-03&to=2025-03-09&queueIds=4&groupBy=week';

/** a query cache holding the answers under the keys of `search`'s filter */
const cacheFor = (search: string, answers: { summary: TReportSummary } & Partial<Record<string, unknown>>) => {
  const client = new QueryClient();
  const params = reportParams(filterOfSearch(new URLSearchParams(search)));
  client.setQueryData(reportKey('summary', params), answers.summary);
  for (const name of ['series', 'heatmap', 'agents', 'queues'] as const) {
    if (answers[name]) client.setQueryData(reportKey(name, params), answers[name]);
  }
  if (answers.csat) client.setQueryData(csatKey(params, 1), answers.csat);

  return client;
};

const render = async (search: string, client: QueryClient) => {
  const { default: ReportsPage } = await import('./ReportsPage');

  return renderScreen(<ReportsPage />, { path: `/reports?${search}`, client });
};

/** the text of the element with that test id (its first text node) */
const textOf = (html: string, testId: string) => html.match(new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`))?.[1];

describe('ReportsPage', { timeout: 90_000 }, () => {
  it('shows the filter of the URL and the figures asked with it, durations in business time by default', async () => {
    const client = cacheFor(SEARCH, { summary, series, heatmap, agents, queues, csat: csatAnswer });
    const html = await render(SEARCH, client);

    // the filter bar holds the URL's window and grouping
    expect(html).toMatch(
      /data-testid="reports-from"[^>]*value="2025-03-03"|value="2025-03-03"[^>]*data-testid="reports-from"/,
    );
    expect(html).toMatch(
      /data-testid="reports-to"[^>]*value="2025-03-09"|value="2025-03-09"[^>]*data-testid="reports-to"/,
    );
    expect(html).toContain('Week');
    expect(textOf(html, 'reports-window')).toBe('03/03/2025 to 09/03/2025 · America/Sao_Paulo');

    expect(textOf(html, 'reports-summary-opened')).toBe('1,234');
    expect(textOf(html, 'reports-summary-resolved')).toBe('8');
    expect(textOf(html, 'reports-summary-firstResponse')).toBe('3 min 20 s');
    expect(textOf(html, 'reports-summary-firstResponse-sub')).toBe('p90: 15 min');
    expect(textOf(html, 'reports-summary-resolution')).toBe('2 h 05 min');
    expect(textOf(html, 'reports-summary-resolution-sub')).toBe('p90: 1 d 4 h');
    expect(textOf(html, 'reports-summary-replies')).toBe('2.5');
    expect(textOf(html, 'reports-summary-reopenRate')).toBe('12.5%');
    expect(textOf(html, 'reports-summary-reopenRate-sub')).toBe('Reopened: 1');
    expect(textOf(html, 'reports-summary-botResolved')).toBe('25%');
    expect(textOf(html, 'reports-summary-botResolved-sub')).toBe('Conversations: 2');
    expect(textOf(html, 'reports-summary-backlog')).toBe('5');
    expect(textOf(html, 'reports-summary-csat')).toBe('75%');
    expect(textOf(html, 'reports-summary-csat-sub')).toBe('Ratings: 4');
    expect(html).not.toContain('data-testid="reports-nothing"');

    // the tables: an agent's row in business time, the row of conversations without agent named so
    const bruno = html.slice(html.indexOf('data-testid="reports-agents-row-7"'));
    expect(bruno).toMatch(/data-col="frtMedian"[^>]*>45 s</);
    expect(bruno).toMatch(/data-col="resMedian"[^>]*>50 min</);
    expect(bruno).toMatch(/data-col="csat"[^>]*>100% \(2\)</);
    expect(html).toContain('data-testid="reports-agents-row-none"');
    expect(html).toContain('No agent');
    expect(html).toMatch(/data-testid="reports-queues-row-4"[\s\S]*Vendas[\s\S]*data-col="reopenRate"[^>]*>50%</);

    // the heat map: each cell its count, the rows Monday first
    expect(html).toMatch(/data-testid="reports-heat-0-10"[^>]*data-count="4"/);
    expect(html).toMatch(/data-testid="reports-heat-6-23"[^>]*data-count="1"/);
    expect(html).toContain('Mon, 10h: 4');

    // the comments with their paging
    expect(html).toContain('Very quick, thanks!');
    expect(html).toContain('Carla · served by Bruno');
    expect(textOf(html, 'reports-comments-count')).toBe('Comments: 21');
    expect(html).toMatch(
      /data-testid="reports-comments-previous"[^>]*disabled|disabled[^>]*data-testid="reports-comments-previous"/,
    );

    // every card exports, the page exports every conversation, and the weekly e-mail switch is there
    for (const card of [
      'volume',
      'heatmap',
      'first-response',
      'resolution',
      'agents-card',
      'queues-card',
      'csat',
      'comments-card',
    ]) {
      expect(html, card).toContain(`data-testid="reports-${card}-export"`);
    }
    expect(html).toContain('data-testid="reports-export"');
    expect(html).toContain('data-testid="reports-weekly-mail"');
    expect(html).toContain('Send me the weekly summary by e-mail');
  });

  it('shows the wall clock when the URL asks for it', async () => {
    const search = `${SEARCH}&clock=wall`;
    const html = await render(search, cacheFor(search, { summary, agents }));
    expect(textOf(html, 'reports-summary-firstResponse')).toBe('10 min');
    expect(textOf(html, 'reports-summary-firstResponse-sub')).toBe('p90: 30 min');
    expect(textOf(html, 'reports-summary-resolution')).toBe('1 d 1 h');
    expect(textOf(html, 'reports-summary-slaFirstResponse')).toBe('75%');
    expect(textOf(html, 'reports-summary-slaFirstResponse-sub')).toBe('With a target: 8');
    const bruno = html.slice(html.indexOf('data-testid="reports-agents-row-7"'));
    expect(bruno).toMatch(/data-col="frtMedian"[^>]*>10 min 10 s</);
  });

  it('says so when nothing was recorded', async () => {
    const empty: TReportSummary = {
      ...summary,
      opened: 0,
      resolved: 0,
      firstResponse: NONE,
      resolution: NONE,
      repliesPerConversation: null,
      reopened: 0,
      reopenRate: null,
      botResolved: 0,
      botResolvedShare: null,
      backlog: 0,
      csat: csat(0, 0, 0),
    };
    const html = await render(
      SEARCH,
      cacheFor(SEARCH, {
        summary: empty,
        series: {
          window: WINDOW,
          points: [{ ...series.points[0]!, opened: 0, resolved: 0, backlog: 0, firstResponse: NONE, resolution: NONE }],
        },
        heatmap: { window: WINDOW, cells: cells.map((r) => r.map(() => 0)), max: 0 },
        agents: { window: WINDOW, rows: [] },
        queues: { window: WINDOW, rows: [] },
        csat: { ...csatAnswer, ...csat(0, 0, 0), comments: [], count: 0, hasMore: false },
      }),
    );
    expect(html).toContain('data-testid="reports-nothing"');
    expect(html).toContain('Nothing was recorded in this period with these filters.');
    expect(textOf(html, 'reports-summary-firstResponse')).toBe('—');
    expect(textOf(html, 'reports-summary-reopenRate')).toBe('—');
    expect(textOf(html, 'reports-summary-csat')).toBe('—');
    for (const empty of [
      'reports-volume-empty',
      'reports-firstResponse-empty',
      'reports-resolution-empty',
      'reports-heatmap-empty',
      'reports-agents-empty',
      'reports-queues-empty',
      'reports-csat-empty',
      'reports-comments-empty',
    ]) {
      expect(html, empty).toContain(`data-testid="${empty}"`);
    }
  });

  it('refuses a window the server would refuse before asking', async () => {
    const search = 'from=2025-03-09&to=2025-03-03';
    const html = await render(search, new QueryClient());
    expect(html).toContain('The start date must come before the end date');
    expect(textOf(html, 'reports-summary-opened')).toBe('–');
  });
});
