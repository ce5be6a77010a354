import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closedLoop, cpuTimeMs, fmt, json, median, request } from './lib';
import { sandboxServer } from './sandbox-server';
import { quietLine, takeBenchLock, waitForQuiet } from './quiet';

/**
 * Two builds of the server side by side on the inbound and send paths (issue 25: "recording the metrics adds
 * ≤ 5 % to inbound throughput and to the send path, measured before and after"). Each build is a directory
 * holding a built `apps/server/dist/main.mjs` (e.g. `git worktree add /tmp/before <commit>`, link node_modules,
 * `node apps/server/build.mjs`). In turns, so a drifting machine load hits both alike, each on a fresh
 * PostgreSQL database with jobs on (as `npm start` runs: background work such as the metrics' computation counts):
 *
 * - inbound: `clients` customer messages in flight from the sandbox simulator (`--customers` customers);
 * - send: `clients` agents' replies in flight (`POST /api/messages/:ticketId`) on the open tickets of those customers.
 *
 * Figures per build are the medians of its turns; server CPU per request is steadier than throughput on two cores.
 *
 *   node --import tsx bench/before-after.ts --before DIR --after DIR [--turns 3] [--seconds 8]
 */

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    before: { type: 'string' },
    after: { type: 'string' },
    turns: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    clients: { type: 'string', default: '20' },
    customers: { type: 'string', default: '200' },
    /** which paths: inbound,send (both), or one of them */
    parts: { type: 'string', default: 'inbound,send' },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const CLIENTS = Number(values.clients);
const CUSTOMERS = Number(values.customers);

type TBuild = 'before' | 'after';
type TFigures = { rps: number; p50: number; p95: number; cpu: number };
type TRun = { build: TBuild; inbound: TFigures; send: TFigures };

const customer = (n: number) => `55119${String(20_000_000 + n)}`;

/** a closed loop of `send`, with the server's CPU per request over the measured part */
const measure = async (
  pid: number | undefined,
  send: (n: number, keepAlive: import('node:http').Agent) => Promise<number>,
) => {
  let n = 0;
  let warm = { cpu: cpuTimeMs(pid), sent: 0 };
  const warmed = setTimeout(() => {
    warm = { cpu: cpuTimeMs(pid), sent: n };
  }, WARMUP * 1000);
  const r = await closedLoop({
    clients: CLIENTS,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    maxRequests: 1_000_000,
    send: (_client, keepAlive) => send(n++, keepAlive),
  });
  clearTimeout(warmed);

  if (process.env.BENCH_SHOW_COUNT) console.log(`    ${n} requests (pid ${pid})`);
  return { rps: r.rps, p50: r.p50, p95: r.p95, cpu: (cpuTimeMs(pid) - warm.cpu) / Math.max(1, n - warm.sent) };
};

const runOnce = async (build: TBuild): Promise<TRun> => {
  const {
    server,
    token,
    userId,
    connectionId: id,
    close,
  } = await sandboxServer({
    baseUrl: values.db!,
    env: { JOBS: 'on', METRICS_TOKEN: '' },
    customers: CUSTOMERS,
    customer,
    bundle: values[build]!,
  });
  try {
    // the customers' tickets, accepted by the admin: the send loop's conversations
    let ticketIds: number[] = [];
    for (let i = 0; ticketIds.length < CUSTOMERS; i++) {
      const page = await json(server.url, {
        method: 'GET',
        path: '/api/tickets?status=pending&showAll=true&pageNumber=1',
        token,
      });
      ticketIds = [...new Set([...ticketIds, ...(page.tickets as { id: number }[]).map((t) => t.id)])];
      for (const t of page.tickets as { id: number }[]) {
        await json(server.url, {
          method: 'PUT',
          path: `/api/tickets/${t.id}`,
          token,
          body: { status: 'open', userId },
        });
      }
      if (i > CUSTOMERS) throw new Error(`only ${ticketIds.length} tickets`);
    }

    const none = { rps: Number.NaN, p50: Number.NaN, p95: Number.NaN, cpu: Number.NaN };
    const parts = values.parts!.split(',');
    const inbound = !parts.includes('inbound')
      ? none
      : await measure(server.proc.pid, async (n, keepAlive) => {
          const res = await request(server.url, {
            method: 'POST',
            path: `/api/sandbox/${id}/inbound`,
            token,
            agent: keepAlive,
            body: { from: customer(n % CUSTOMERS), body: `mensagem ${n}` },
            discardBody: true,
          });
          return res.status;
        });
    const send = !parts.includes('send')
      ? none
      : await measure(server.proc.pid, async (n, keepAlive) => {
          const res = await request(server.url, {
            method: 'POST',
            path: `/api/messages/${ticketIds[n % ticketIds.length]}`,
            token,
            agent: keepAlive,
            body: { body: `resposta ${n}` },
            discardBody: true,
          });
          return res.status === 201 ? 200 : res.status;
        });

    return { build, inbound, send };
  } finally {
    await close();
  }
};

const main = async () => {
  for (const build of ['before', 'after'] as const) {
    if (!values[build] || !existsSync(resolve(values[build], 'apps/server/dist/main.mjs'))) {
      throw new Error(`--${build} DIR: apps/server/dist/main.mjs is not built there`);
    }
  }
  await takeBenchLock();
  const quiet = await waitForQuiet(Number(process.env.BENCH_MAX_WAIT ?? 600));
  console.log(quietLine(quiet));
  const loadBefore = loadavg();
  const runs: TRun[] = [];
  for (let turn = 0; turn < Number(values.turns); turn++) {
    for (const build of ['before', 'after'] as const) {
      const run = await runOnce(build);
      console.log(
        `  ${build}: inbound ${fmt(run.inbound.rps, 0)} msg/s (${fmt(run.inbound.cpu, 3)} ms CPU each); send ${fmt(run.send.rps, 0)}/s (${fmt(run.send.cpu, 3)} ms CPU each)`,
      );
      runs.push(run);
    }
  }
  const loadAfter = loadavg();
  const of = (build: TBuild, part: 'inbound' | 'send', key: keyof TFigures) =>
    median(runs.filter((r) => r.build === build).map((r) => r[part][key]));
  console.log(
    `\nload average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(`command: node --import tsx bench/before-after.ts ${process.argv.slice(2).join(' ')}`);
  console.log('\n| path | build | req/s | p50 ms | p95 ms | server CPU ms/req |');
  console.log('|---|---|---|---|---|---|');
  for (const part of ['inbound', 'send'] as const) {
    for (const build of ['before', 'after'] as const) {
      console.log(
        `| ${part}, ${CLIENTS} in flight | ${build} | ${fmt(of(build, part, 'rps'), 0)} | ${fmt(of(build, part, 'p50'), 2)} | ${fmt(of(build, part, 'p95'), 2)} | ${fmt(of(build, part, 'cpu'), 3)} |`,
      );
    }
  }
  for (const part of ['inbound', 'send'] as const) {
    const change = (key: keyof TFigures) =>
      ((of('after', part, key) - of('before', part, key)) / of('before', part, key)) * 100;
    console.log(
      `${part}: after vs before, throughput ${fmt(change('rps'), 1)} %, server CPU per request ${fmt(change('cpu'), 1)} %`,
    );
  }
};

await main();
