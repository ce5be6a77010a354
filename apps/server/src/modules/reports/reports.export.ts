import type {
  TDurationStats,
  TLanguage,
  TReportExport,
  TReportExportQuery,
  TReportFormat,
  TReportRowFigures,
} from '@zelo/shared';
import type { Readable } from 'node:stream';
import type { TDbOrTx } from '../../db/client';
import { clockFormat } from '../../lib/dates';
import {
  CSV_TYPE,
  sheetStream,
  type TCsvStyle,
  type TSheetCell,
  type TSheetColumn,
  type TSheetColumnKind,
  XLSX_TYPE,
} from '../../lib/sheets/sheet-writer';
import { EXPORT_TEXTS, readerLanguage, type TExportTexts } from './export-texts';
import {
  FIRST_CYCLE,
  readComments,
  readConnectionNames,
  readCycleFacts,
  readNames,
  readReader,
  type TCycleKey,
  type TReportFilters,
} from './reports.repo';
import {
  reportAgents,
  reportFilters,
  reportHeatmap,
  reportQueues,
  reportSeries,
  reportSummary,
  type TReportScope,
} from './reports.service';

/**
 * The report exports (`GET /api/reports/export`, ARCHITECTURE "Reports"): each table and chart of the reports
 * screen as a CSV or XLSX file, and every conversation of the window, one row each.
 *
 * - The tables are built from the same service functions that answer the JSON reports (`reportSummary`,
 *   `reportSeries`, …), so a file and the screen cannot show different numbers. Summary: one row. Series: one row a
 *   bucket. Heat map: one row a weekday (Monday first), one column an hour. Agents, queues: one row each, as the
 *   JSON orders them. Satisfaction: the customers' comments of the window (all of them, newest first; the rating
 *   counts are columns of the summary, agents and queues exports).
 * - Tickets: one row per conversation (attendance cycle) started in the window — the summary's "opened", with
 *   the same filters — with its facts (ticket, contact, queue, agent, connection, its instants, durations,
 *   replies, whether it was reopened, bot time, rating and comment). Streamed: keyset pages of
 *   `CONVERSATIONS_PAGE` rows (reports.repo.ts `readCycleFacts`), each written to the reply as it is read, so the
 *   memory stays one page whatever the window holds.
 * - Units: durations are whole SECONDS as numbers (the column name says "(s)"), wall clock and business time as in
 *   the JSON; rates are 0–1 as in the JSON (the column name says "(0–1)"; the XLSX shows them as percentages);
 *   means as the JSON rounds them. Times are the company's wall clock, 'yyyy-MM-dd HH:mm:ss', the zone in the
 *   column name. Counts where the JSON has null (no conversation) are empty cells.
 * - Column names, weekdays and yes/no in the asked language (`lang`), else the caller's (its own choice, else its
 *   company's). The CSV's separator and decimal mark follow that language (lib/sheets/sheet-writer.ts).
 * - Always the caller's company (the scope comes from the session; a `companyId` in the query is never read);
 *   flow test tickets are left out as in every report.
 */

/** conversations read per page of the tickets export */
export const CONVERSATIONS_PAGE = 2_000;

type TSpec<R> = {
  header: keyof TExportTexts | ((t: TExportTexts) => string);
  kind: TSheetColumnKind;
  value: (r: R) => TSheetCell;
};

const spec = <R>(header: TSpec<R>['header'], kind: TSheetColumnKind, value: (r: R) => TSheetCell): TSpec<R> => ({
  header,
  kind,
  value,
});

/** count, median and p90 on the wall clock and in business time, of one duration */
const durationSpecs = <R>(prefix: 'fr' | 'res' | 'bot', stats: (r: R) => TDurationStats): TSpec<R>[] => [
  spec(`${prefix}Count`, 'int', (r) => stats(r).count),
  spec(`${prefix}Median`, 'int', (r) => stats(r).median),
  spec(`${prefix}P90`, 'int', (r) => stats(r).p90),
  spec(`${prefix}MedianBusiness`, 'int', (r) => stats(r).medianBusiness),
  spec(`${prefix}P90Business`, 'int', (r) => stats(r).p90Business),
];

/** the figures every table row has (TReportRowFigures), in the screen's order */
const figureSpecs = <R extends TReportRowFigures>(): TSpec<R>[] => [
  spec('opened', 'int', (r) => r.opened),
  spec('resolved', 'int', (r) => r.resolved),
  ...durationSpecs<R>('fr', (r) => r.firstResponse),
  ...durationSpecs<R>('res', (r) => r.resolution),
  spec('replies', 'decimal', (r) => r.repliesPerConversation),
  spec('reopened', 'int', (r) => r.reopened),
  spec('reopenRate', 'rate', (r) => r.reopenRate),
  spec('botResolved', 'int', (r) => r.botResolved),
  spec('botResolvedShare', 'rate', (r) => r.botResolvedShare),
  spec('rated', 'int', (r) => r.csat.rated),
  spec('satisfied', 'int', (r) => r.csat.satisfied),
  spec('score', 'rate', (r) => r.csat.score),
  spec('rated1', 'int', (r) => r.csat.distribution[1]),
  spec('rated2', 'int', (r) => r.csat.distribution[2]),
  spec('rated3', 'int', (r) => r.csat.distribution[3]),
  spec('slaFrDecided', 'int', (r) => r.sla.firstResponse.decided),
  spec('slaFrMet', 'int', (r) => r.sla.firstResponse.met),
  spec('slaFrShare', 'rate', (r) => r.sla.firstResponse.share),
  spec('slaResDecided', 'int', (r) => r.sla.resolution.decided),
  spec('slaResMet', 'int', (r) => r.sla.resolution.met),
  spec('slaResShare', 'rate', (r) => r.sla.resolution.share),
];

type TTable = { columns: TSheetColumn[]; pages: AsyncIterable<TSheetCell[][]> };

const tableOf = <R>(specs: TSpec<R>[], texts: TExportTexts, rows: R[]): TTable => ({
  columns: specs.map((s) => ({
    header: typeof s.header === 'function' ? s.header(texts) : (texts[s.header] as string),
    kind: s.kind,
  })),
  pages: (async function* () {
    yield rows.map((row) => specs.map((s) => s.value(row)));
  })(),
});

/** an instant (ISO) as the company's wall clock, 'yyyy-MM-dd HH:mm:ss' */
const wallClockText = (iso: string, timeZone: string) => {
  const format = clockFormat(timeZone);
  if (!format) return iso.slice(0, 19).replace('T', ' ');
  const f = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));

  return `${f.year}-${f.month}-${f.day} ${f.hour}:${f.minute}:${f.second}`;
};

const inZone = (key: keyof TExportTexts, timeZone: string) => (t: TExportTexts) => `${t[key] as string} (${timeZone})`;

/** the tables built from the JSON reports' own functions */
const TABLES: Record<
  Exclude<TReportExport, 'tickets'>,
  (db: TDbOrTx, scope: TReportScope, query: TReportExportQuery, t: TExportTexts) => Promise<TTable>
> = {
  summary: async (db, scope, query, t) => {
    const s = await reportSummary(db, scope, query);
    const [opened, resolved, ...rest] = figureSpecs<typeof s>();

    return tableOf(
      [
        spec('from', 'text', () => s.window.from),
        spec('to', 'text', () => s.window.to),
        spec('timeZone', 'text', () => s.window.timeZone),
        opened!,
        resolved!,
        spec('backlog', 'int', () => s.backlog),
        ...rest,
        ...durationSpecs<typeof s>('bot', (r) => r.botTime),
      ],
      t,
      [s],
    );
  },
  series: async (db, scope, query, t) => {
    const { points } = await reportSeries(db, scope, query);

    return tableOf<(typeof points)[number]>(
      [
        spec('bucket', 'text', (p) => p.bucket),
        spec('opened', 'int', (p) => p.opened),
        spec('resolved', 'int', (p) => p.resolved),
        spec('backlog', 'int', (p) => p.backlog),
        ...durationSpecs<(typeof points)[number]>('fr', (p) => p.firstResponse),
        ...durationSpecs<(typeof points)[number]>('res', (p) => p.resolution),
      ],
      t,
      points,
    );
  },
  heatmap: async (db, scope, query, t) => {
    const { cells } = await reportHeatmap(db, scope, query);
    const hours = Array.from({ length: 24 }, (_, h) =>
      spec<{ day: number; hours: number[] }>(
        () => `${String(h).padStart(2, '0')}:00`,
        'int',
        (r) => r.hours[h],
      ),
    );

    return tableOf<{ day: number; hours: number[] }>(
      [spec('weekday', 'text', (r) => t.weekdays[r.day]), ...hours],
      t,
      cells.map((row, day) => ({ day, hours: row })),
    );
  },
  agents: async (db, scope, query, t) => {
    const { rows } = await reportAgents(db, scope, query);

    return tableOf<(typeof rows)[number]>(
      [
        spec('agentId', 'int', (r) => r.userId),
        spec('agent', 'text', (r) => (r.userId === null ? t.noAgent : r.name)),
        ...figureSpecs<(typeof rows)[number]>(),
      ],
      t,
      rows,
    );
  },
  queues: async (db, scope, query, t) => {
    const { rows } = await reportQueues(db, scope, query);

    return tableOf<(typeof rows)[number]>(
      [
        spec('queueId', 'int', (r) => r.queueId),
        spec('queue', 'text', (r) => (r.queueId === null ? t.noQueue : r.name)),
        ...figureSpecs<(typeof rows)[number]>(),
      ],
      t,
      rows,
    );
  },
  csat: async (db, scope, query, t) => {
    const { filters } = reportFilters(scope, query);
    const zone = filters.timeZone;
    const specs = [
      spec<TCommentCells>(inZone('ratedAt', zone), 'datetime', (c) => wallClockText(c.created_at, zone)),
      spec<TCommentCells>('ticketId', 'int', (c) => c.ticket_id),
      spec<TCommentCells>('contact', 'text', (c) => c.contact_name),
      spec<TCommentCells>('agent', 'text', (c) => c.user_name ?? t.noAgent),
      spec<TCommentCells>('rate', 'int', (c) => c.rate),
      spec<TCommentCells>('comment', 'text', (c) => c.comment),
    ];

    return {
      columns: tableOf(specs, t, []).columns,
      pages: (async function* () {
        for (let offset = 0; ; offset += CONVERSATIONS_PAGE) {
          const page = await readComments(db, filters, CONVERSATIONS_PAGE, offset);
          yield page.map((c) => specs.map((s) => s.value(c)));
          if (page.length < CONVERSATIONS_PAGE) return;
        }
      })(),
    };
  },
};

type TCommentCells = Awaited<ReturnType<typeof readComments>>[number];

/** every conversation of the window, page by page (never more than one page in memory) */
const conversations = async (db: TDbOrTx, scope: TReportScope, query: TReportExportQuery, t: TExportTexts) => {
  const { filters } = reportFilters(scope, query);
  const zone = filters.timeZone;
  const [names, connections] = await Promise.all([
    readNames(db, scope.companyId),
    readConnectionNames(db, scope.companyId),
  ]);
  const userName = new Map(names.users.map((u) => [u.id, u.name]));
  const queueName = new Map(names.queues.map((q) => [q.id, q.name]));
  const connectionName = new Map(connections.map((c) => [c.id, c.name]));
  const columns: TSheetColumn[] = [
    { header: t.ticketId, kind: 'int' },
    { header: t.uuid, kind: 'text' },
    { header: t.contact, kind: 'text' },
    { header: t.queue, kind: 'text' },
    { header: t.agent, kind: 'text' },
    { header: t.connection, kind: 'text' },
    { header: inZone('started', zone)(t), kind: 'datetime' },
    { header: inZone('firstResponseAt', zone)(t), kind: 'datetime' },
    { header: inZone('resolvedAt', zone)(t), kind: 'datetime' },
    { header: t.frS, kind: 'int' },
    { header: t.frBs, kind: 'int' },
    { header: t.resS, kind: 'int' },
    { header: t.resBs, kind: 'int' },
    { header: t.agentReplies, kind: 'int' },
    { header: t.wasReopened, kind: 'text' },
    { header: t.botS, kind: 'int' },
    { header: t.botBs, kind: 'int' },
    { header: t.rate, kind: 'int' },
    { header: t.comment, kind: 'text' },
  ];

  return {
    columns,
    pages: (async function* () {
      const read = (after: TCycleKey) => {
        const page = readCycleFacts(db, filters satisfies TReportFilters, after, CONVERSATIONS_PAGE);
        // a download broken off leaves the page read ahead unawaited: its failure is nobody's to hear
        page.catch(() => undefined);

        return page;
      };
      let next = read(FIRST_CYCLE);
      for (;;) {
        const page = await next;
        const last = page.at(-1);
        const more = last !== undefined && page.length === CONVERSATIONS_PAGE;
        // the next page is read (on PostgreSQL, by its own process) while this one is written
        if (more) next = read({ at: last.at, id: last.id });
        yield page.map((r) => [
          r.ticket_id,
          r.uuid,
          r.contact,
          r.queue_id === null ? null : queueName.get(r.queue_id),
          r.user_id === null ? null : userName.get(r.user_id),
          r.whatsapp_id === null ? null : connectionName.get(r.whatsapp_id),
          r.started,
          r.first_reply,
          r.resolved,
          r.frs,
          r.frbs,
          r.rs,
          r.rbs,
          r.replies,
          r.reopened ? t.yes : t.no,
          r.bs,
          r.bbs,
          r.rate,
          r.comment,
        ]);
        if (!more) return;
      }
    })(),
  };
};

/** the reader's language: as asked, else the user's own choice, else its company's */
export const exportLanguage = async (db: TDbOrTx, companyId: number, userId: number, asked?: TLanguage) => {
  if (asked) return asked;
  const reader = await readReader(db, companyId, userId);

  return readerLanguage(reader?.language, reader?.company_language);
};

const CSV_STYLES: Record<TLanguage, TCsvStyle> = {
  pt: { separator: ';', decimal: ',' },
  es: { separator: ';', decimal: ',' },
  en: { separator: ',', decimal: '.' },
};

export type TReportFile = { fileName: string; contentType: string; stream: Readable };

/** the file of one export: its name, type and bytes (streamed) */
export const exportReport = async (
  db: TDbOrTx,
  scope: TReportScope,
  query: TReportExportQuery,
  lang: TLanguage,
): Promise<TReportFile> => {
  const format: TReportFormat = query.format ?? 'csv';
  const t = EXPORT_TEXTS[lang];
  const { window } = reportFilters(scope, query);
  const table =
    query.report === 'tickets'
      ? await conversations(db, scope, query, t)
      : await TABLES[query.report](db, scope, query, t);

  return {
    fileName: `zelo-report-${query.report}-${window.from}-${window.to}.${format}`,
    contentType: format === 'csv' ? CSV_TYPE : XLSX_TYPE,
    stream: sheetStream(format, { sheetName: query.report, ...table, csv: CSV_STYLES[lang] }),
  };
};
