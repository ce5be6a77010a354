process.env.SANDBOX_OPENING_MS ??= '10';
process.env.SANDBOX_ACK_MS ??= '50';

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../apps/server/src/app';
import type { TInboundMessage } from '../apps/server/src/channels/types';
import { loadConfig } from '../apps/server/src/config';
import { openPglite, openPostgres, runMigrations, type TDatabase } from '../apps/server/src/db/client';
import { createInboundHandlers } from '../apps/server/src/inbound/index';
import { ensureSuperUser } from '../apps/server/src/lib/seed';
import { createPgDatabase, fmt, percentile, removeDir, tempDir } from './lib';
import { sandboxCompany } from './sandbox-company';

/**
 * No tenant starves the others (issue 20 item 9), in one process, on PGlite and on PostgreSQL: company B's inbound
 * latency — a new customer's message delivered by the channel → stored, B's one-message flow started and its answer
 * sent (the pipeline's `onMessage` until it resolves), one customer at a time — first quiet, then while company A
 * runs `loops` flows that loop for ever (message → 1 s interval → back to the message, started by A's customers
 * through a phrase). Target: B's loaded p95 ≤ 2 × its quiet p95. A's progress (texts its loops sent in the loaded
 * window) and its deferred steps are reported beside it. `budgets: false` lifts the flow budget (the behaviour
 * before the fix) for comparison.
 */

/**
 * B is an ordinary company: a new customer every `paceMs` (start to start) — 4 a second on PostgreSQL, 1 a second
 * on PGlite — below its own flow budget (each costs B two or three flow steps: start, message, its send; the
 * budgets are 20 steps/s on PostgreSQL, 5 on PGlite), so what B waits for is A's load and never its own share (a
 * B writing as fast as it can measured its own bucket: a quiet p50 of 179 ms against a loaded 34 ms, and 800 ms
 * on PGlite). `warmup` samples are not counted.
 */
export const FAIRNESS_DEFAULTS = {
  loops: 50,
  samples: 80,
  warmup: 20,
  paceMs: { pglite: 1000, postgres: 250 },
  rampSeconds: 5,
  budgets: true,
};
export type TFairnessOptions = typeof FAIRNESS_DEFAULTS;

export type TFairnessResult = {
  database: 'PGlite' | 'PostgreSQL';
  budgets: boolean;
  loops: number;
  samples: number;
  /** B's new customers a second */
  perSecond: number;
  quietP50Ms: number;
  quietP95Ms: number;
  loadedP50Ms: number;
  loadedP95Ms: number;
  ratio: number;
  /** texts company A's loops sent while B was measured under load */
  busySends: number;
  loadedSeconds: number;
  /** A's flow steps waiting for its budget at the end of the loaded window */
  busyWaiting: number;
  /** A's flows started (of `loops`) by the end of the loaded window */
  busyRuns: number;
};

const at = { x: 0, y: 0 };
const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: at, data });
const edge = (source: string, target: string) => ({ id: `e-${source}-${target}`, source, target, sourceHandle: null });
const start = node('1', 'start', { label: 'Inicio do fluxo' });
const loopFlow = {
  nodes: [start, node('m', 'message', { label: 'de novo' }), node('i', 'interval', { label: 'Intervalo', sec: 1 })],
  connections: [edge('1', 'm'), edge('m', 'i'), edge('i', 'm')],
};
const helloFlow = { nodes: [start, node('m', 'message', { label: 'Olá!' })], connections: [edge('1', 'm')] };

const run = async (
  label: TFairnessResult['database'],
  open: () => Promise<{ database: TDatabase; cleanup: () => void }>,
  opts: TFairnessOptions,
): Promise<TFairnessResult> => {
  const dataDir = tempDir('fairness');
  const logger = pino({ level: 'silent' });
  const { database, cleanup } = await open();
  try {
    await runMigrations(database);
    await ensureSuperUser(database.db, { email: 'bench-super@zelo.test', password: 'Bench-Pass-1', log: logger });
    const config = loadConfig({
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      JOBS: 'off',
      LOG_LEVEL: 'silent',
      FLOW_TYPING_MS: '0',
      FLOW_ELEMENT_GAP_MS: '0',
      ...(opts.budgets ? {} : { TENANT_BUDGET_FLOWS: '100000,100000,100000' }),
    });
    const { app, ctx } = await buildApp({ config, database, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const handlers = createInboundHandlers(ctx);
    ctx.channels.setEvents(handlers);
    try {
      const busy = await sandboxCompany(app, ctx, 'Bench Busy');
      const quiet = await sandboxCompany(app, ctx, 'Bench Quiet');
      const flowOf = async (company: typeof busy, doc: object, phrase: string) => {
        const id = (await company.call('POST', '/api/flowbuilder', company.token, { name: `Bench ${phrase}` })).body
          .id as number;
        const saved = await company.call('POST', '/api/flowbuilder/flow', company.token, { idFlow: id, ...doc });
        if (saved.status !== 200) throw new Error(`flow save: ${saved.status}`);
        await company.call('POST', '/api/flowcampaign', company.token, {
          name: `Bench ${phrase}`,
          flowId: id,
          whatsappId: company.conn,
          phrase,
        });
      };
      await flowOf(busy, loopFlow, 'loop');
      await flowOf(quiet, helloFlow, 'oi');

      let n = 0;
      const message = (connectionId: number, body: string): TInboundMessage => ({
        connectionId,
        externalId: `f-${randomBytes(8).toString('hex')}`,
        from: `55117${String(20_000_000 + n++).padStart(8, '0')}`,
        fromMe: false,
        pushName: 'Cliente',
        isGroup: false,
        type: 'text',
        body,
        timestamp: new Date(),
      });
      // every text the busy company's loops send
      let busySends = 0;
      const session = ctx.channels.local(busy.conn) as { sendText: (...args: unknown[]) => Promise<unknown> };
      const sendText = session.sendText.bind(session);
      session.sendText = (...args: unknown[]) => {
        busySends += 1;
        return sendText(...args);
      };

      const paceMs = label === 'PGlite' ? opts.paceMs.pglite : opts.paceMs.postgres;
      /** B's inbound, one new customer at a time, `paceMs` apart (start to start) */
      const measure = async (count: number) => {
        const times: number[] = [];
        for (let i = 0; i < count; i++) {
          const t0 = performance.now();
          await handlers.onMessage(message(quiet.conn, 'oi'));
          const took = performance.now() - t0;
          times.push(took);
          await new Promise((r) => setTimeout(r, Math.max(0, paceMs - took)));
        }
        return times.sort((a, b) => a - b);
      };

      const phase = (what: string) => console.log(`  ${label}: ${what}`);
      phase(`warm-up, ${opts.warmup} of B's messages`);
      await measure(opts.warmup);
      phase(`quiet, ${opts.samples} of B's messages`);
      const quietTimes = await measure(opts.samples);
      // A's customers start their loops, all at once, and the loops ramp up
      phase(`A starts ${opts.loops} looping flows`);
      // (not awaited: on A's budget its last customers' flows start only after many of its loops' steps, which is
      // the point; B is measured meanwhile)
      void Array.from({ length: opts.loops }, () =>
        handlers.onMessage(message(busy.conn, 'loop')).catch(() => undefined),
      );
      await new Promise((r) => setTimeout(r, opts.rampSeconds * 1000));
      phase(`loaded, ${opts.samples} of B's messages`);
      const sendsBefore = busySends;
      const t0 = performance.now();
      const loadedTimes = await measure(opts.samples);
      const loadedSeconds = (performance.now() - t0) / 1000;
      const busyWaiting = ctx.budgets.flows.state(busy.companyId).waiting;
      const busyStarted = (
        await database.executeSql('select count(*)::int as n from flow_runs where company_id = $1', [busy.companyId])
      ).rows[0] as { n: number };
      const quietP95Ms = percentile(quietTimes, 95);
      const loadedP95Ms = percentile(loadedTimes, 95);

      return {
        database: label,
        budgets: opts.budgets,
        loops: opts.loops,
        samples: opts.samples,
        perSecond: 1000 / paceMs,
        quietP50Ms: percentile(quietTimes, 50),
        quietP95Ms,
        loadedP50Ms: percentile(loadedTimes, 50),
        loadedP95Ms,
        ratio: loadedP95Ms / quietP95Ms,
        busySends: busySends - sendsBefore,
        loadedSeconds,
        busyWaiting,
        busyRuns: busyStarted.n,
      };
    } finally {
      // the loops end with their company's runs: every active run is closed before the app stops
      await database.executeSql("update flow_runs set status = 'done', wait = null, resume_at = null");
      await app.close();
    }
  } finally {
    await database.close();
    cleanup();
    removeDir(dataDir);
  }
};

export const fairnessPglite = (opts: TFairnessOptions = FAIRNESS_DEFAULTS) =>
  run(
    'PGlite',
    async () => {
      const dir = tempDir('fairness-db');
      return { database: await openPglite({ dataDir: dir }), cleanup: () => removeDir(dir) };
    },
    opts,
  );

export const fairnessPostgres = (baseUrl: string, opts: TFairnessOptions = FAIRNESS_DEFAULTS) =>
  run(
    'PostgreSQL',
    async () => {
      const pg = createPgDatabase(baseUrl, `zelo_bench_fair_${randomBytes(4).toString('hex')}`);
      return { database: await openPostgres(pg.url, 20), cleanup: () => pg.drop() };
    },
    opts,
  );

export const fairnessTable = (results: TFairnessResult[]) =>
  [
    "| database | flow budget | company A's looping flows | B's new customers a second | company B's inbound, quiet (p50 / p95) | B under A's load (p50 / p95) | loaded p95 ÷ quiet p95 | A's texts sent while B was measured | A's steps deferred at the end | A's flows started by then | target |",
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.database} | ${r.budgets ? 'on' : 'off'} | ${r.loops} | ${r.perSecond} | ${fmt(r.quietP50Ms)} / ${fmt(r.quietP95Ms)} ms | ${fmt(r.loadedP50Ms)} / ${fmt(r.loadedP95Ms)} ms | ${fmt(r.ratio, 2)} | ${r.busySends} in ${fmt(r.loadedSeconds, 1)} s | ${r.busyWaiting} | ${r.busyRuns} of ${r.loops} | ≤ 2 |`,
    ),
  ].join('\n');

/** a database's run in a child process (fairness-child.ts says why); its phases are printed as they come */
export const fairnessInChild = (db: 'pglite' | 'postgres', opts: TFairnessOptions, pgUrl = '') =>
  new Promise<TFairnessResult>((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(import.meta.dirname, 'fairness-child.ts'), db, JSON.stringify(opts), pgUrl],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('{')) resolvePromise(JSON.parse(line) as TFairnessResult);
        else if (line.trim()) console.log(line);
      }
    });
    child.once('exit', (code) => {
      if (out.startsWith('{')) resolvePromise(JSON.parse(out) as TFairnessResult);
      if (code !== 0) reject(new Error(`fairness on ${db} exited with ${code}`));
    });
  });
