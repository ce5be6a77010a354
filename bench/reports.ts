import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DEFAULT_GENERATE } from './generate';
import { INBOX_DEFAULTS, type TInboxOptions, withGeneratedInbox } from './inbox';
import http from 'node:http';
import { closedLoopGets, fmt, json, removeDir, startServer, tempDir } from './lib';

/**
 * The reports (issue 25: any report over 12 months p95 ≤ 150 ms; the year's per-conversation export streams at
 * ≥ 20,000 rows/s with flat memory) on the generated inbox (PostgreSQL, 100,000 tickets / 1,000,000 messages over
 * the last 180 days, one attendance cycle each). The server starts with jobs on and back-fills the cycles' metrics
 * from their messages, as it would on a database written before the metrics existed (the time it takes is
 * reported); then each report over the last 12 months is read by `clients` closed-loop admins of the first
 * company (default 1: the target is a report's own time, as one admin opening the page waits for it; `--reports-clients
 * 4` shows four at once) with kept answers off (`LIST_ANSWERS=off`: computed on every request). The exports are read once each,
 * timed, with the server's resident memory sampled while they stream.
 */

export const REPORTS_DEFAULTS = { clients: 1, p95TargetMs: 150, exportRowsPerSecond: 20_000 };

export type TReportsResult = {
  what: string;
  clients: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  serverCpuMs: number;
};
export type TReportsExport = {
  what: string;
  rows: number;
  bytes: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
};
export type TReportsRun = {
  backfill: { cycles: number; seconds: number };
  reads: TReportsResult[];
  exports: TReportsExport[];
};

const psql = (url: string, sql: string) =>
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql], { encoding: 'utf8' }).trim();

const rssMb = (pid: number | undefined) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
};

/** a GET whose answer is counted as it streams (bytes, newlines), never kept */
const download = (url: string, token: string) =>
  new Promise<{ status: number; bytes: number; newlines: number }>((done, fail) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0;
        let newlines = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) newlines++;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, bytes, newlines }));
        res.on('error', fail);
      })
      .on('error', fail);
  });

const day = (d: Date) => d.toISOString().slice(0, 10);

export const reportsPostgres = async (
  opts: { clients: number; seconds: number; warmupSeconds: number; tickets: number },
  baseUrl: string,
): Promise<TReportsRun> => {
  const inbox: TInboxOptions = { ...INBOX_DEFAULTS, tickets: opts.tickets };

  return withGeneratedInbox(inbox, baseUrl, async (databaseUrl, generated) => {
    const dataDir = tempDir('reports');
    const cycles = Number(psql(databaseUrl, 'select count(*) from ticket_trackings'));
    const t0 = performance.now();
    const server = await startServer({
      dataDir,
      databaseUrl,
      env: { RATE_LIMITS: 'off', JOBS: 'on', LIST_ANSWERS: 'off' },
      timeoutMs: 180_000,
    });
    try {
      // the backfill, then the figures of every cycle it claimed
      const due = `select count(*) from ticket_trackings where metrics_backfill
        or (first_reply_at is not null and first_response_s is null)
        or (coalesce(rating_at, finished_at) is not null and resolution_s is null)`;
      while (Number(psql(databaseUrl, due)) > 0) await new Promise((r) => setTimeout(r, 500));
      const backfill = { cycles, seconds: (performance.now() - t0) / 1000 };
      // what autovacuum does after a backfill rewrote every cycle: the visibility map lets the reports read their
      // covering indexes alone (index-only scans)
      psql(databaseUrl, 'vacuum analyze ticket_trackings');
      console.log(`  backfill: ${cycles} cycles in ${fmt(backfill.seconds, 1)} s`);

      const company = generated.companies[0];
      const token = (
        await json(server.url, {
          method: 'POST',
          path: '/api/auth/login',
          body: { email: company.admin.email, password: DEFAULT_GENERATE.password },
        })
      ).token as string;
      const to = new Date();
      const from = new Date(to.getTime() - 364 * 86_400_000);
      const window = `from=${day(from)}&to=${day(to)}`;
      const rows: [string, string][] = [
        ['summary', `/api/reports/summary?${window}`],
        ['series by week', `/api/reports/series?${window}&groupBy=week`],
        ['series by day', `/api/reports/series?${window}&groupBy=day`],
        ['heat map', `/api/reports/heatmap?${window}`],
        ['per agent', `/api/reports/agents?${window}`],
        ['per queue', `/api/reports/queues?${window}`],
        ['satisfaction, comments page 1', `/api/reports/csat?${window}`],
        [
          'summary, one queue and one agent',
          `/api/reports/summary?${window}&queueIds=[${company.queueIds[0]}]&userIds=[${company.agents[0]!.id}]`,
        ],
      ];
      const reads: TReportsResult[] = [];
      for (const [what, path] of rows) {
        const first = await json(server.url, { method: 'GET', path, token });
        if (what === 'summary')
          console.log(`  summary: ${first.opened} opened, ${first.resolved} resolved in the window`);
        const r = await closedLoopGets(
          server,
          { clients: opts.clients, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds },
          () => ({ path, token }),
        );
        console.log(`  ${what}: p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms`);
        reads.push({ what, clients: opts.clients, ...r });
      }

      const exports: TReportsExport[] = [];
      for (const format of ['csv', 'xlsx'] as const) {
        const path = `/api/reports/export?report=tickets&format=${format}&${window}`;
        const rssBeforeMb = rssMb(server.proc.pid);
        let rssPeakMb = rssBeforeMb;
        const sampler = setInterval(() => {
          rssPeakMb = Math.max(rssPeakMb, rssMb(server.proc.pid));
        }, 50);
        const started = performance.now();
        const res = await download(`${server.url}${path}`, token);
        const seconds = (performance.now() - started) / 1000;
        clearInterval(sampler);
        if (res.status !== 200) {
          console.log(`  export ${format}: ${res.status}, not measured`);
          continue;
        }
        const { bytes } = res;
        // the CSV's lines less its header; the workbook's rows are the company's cycles in the window
        const lines =
          format === 'csv'
            ? res.newlines - 1
            : Number(
                psql(
                  databaseUrl,
                  `select count(*) from ticket_trackings where company_id = ${company.id} and created_at >= '${day(from)}'`,
                ),
              );
        console.log(`  export ${format}: ${lines} rows, ${fmt(bytes / 1e6, 1)} MB in ${fmt(seconds, 2)} s`);
        exports.push({ what: `tickets, ${format}`, rows: lines, bytes, seconds, rssBeforeMb, rssPeakMb });
      }

      return { backfill, reads, exports };
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });
};

export const reportsTable = (run: TReportsRun) =>
  [
    `Backfill of ${run.backfill.cycles} cycles' metrics from their messages (server start included): ${fmt(run.backfill.seconds, 1)} s.`,
    '',
    '| report over 12 months (company 1) | clients | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms | p95 target | server CPU ms/request |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    ...run.reads.map(
      (r) =>
        `| ${r.what} | ${r.clients} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ` +
        `${fmt(r.max, 0)} | ${r.p95 <= REPORTS_DEFAULTS.p95TargetMs ? 'met' : '**missed**'} (≤ ${REPORTS_DEFAULTS.p95TargetMs}) | ${fmt(r.serverCpuMs, 2)} |`,
    ),
    '',
    '| export | rows | MB | seconds | rows/s | target | server RSS before → peak MB |',
    '|---|---:|---:|---:|---:|---|---|',
    ...run.exports.map((e) => {
      const rate = e.rows / e.seconds;
      return (
        `| ${e.what} | ${e.rows} | ${fmt(e.bytes / 1e6, 1)} | ${fmt(e.seconds, 2)} | ${fmt(rate, 0)} | ` +
        `${rate >= REPORTS_DEFAULTS.exportRowsPerSecond ? 'met' : '**missed**'} (≥ ${REPORTS_DEFAULTS.exportRowsPerSecond}) | ${fmt(e.rssBeforeMb, 0)} → ${fmt(e.rssPeakMb, 0)} |`
      );
    }),
  ].join('\n');
