import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closedLoop, closedLoopGets, cpuTimeMs, fmt, median, request } from './lib';
import { sandboxServer } from './sandbox-server';
import { quietLine, takeBenchLock, waitForQuiet } from './quiet';

/**
 * What /metrics costs (issue 24 item 3: ≤ 2 % on the ticket list and inbound benchmarks). One server at a
 * time on a fresh PostgreSQL database, in turns so a drifting machine load hits every configuration alike:
 *
 * - `base`: the server as it was before the operations work (`--base DIR`: a built copy of that commit's
 *   apps/server, e.g. `git archive <commit> apps/server packages/shared | tar -x -C DIR` and
 *   `node DIR/apps/server/build.mjs` with node_modules linked), when given;
 * - `off`: this server, METRICS_TOKEN unset (the request counter of the graceful stop and the lease fence on);
 * - `on`: this server with METRICS_TOKEN set (HTTP histogram, counters) and Prometheus scraping every second.
 *
 * Each run: a company's sandbox connection with `--seed` customers' pending tickets, then 20 agents listing
 * the pending tickets in a closed loop, then 20 inbound messages in flight from the simulator, each
 * `--seconds` after a warm-up. Figures per configuration are the medians of its turns; server CPU per
 * request is less sensitive to the machine's load than latency.
 *
 *   node --import tsx bench/metrics-overhead.ts [--turns 2] [--seconds 6] [--base /tmp/zelo-base]
 */

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    turns: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '6' },
    warmup: { type: 'string', default: '2' },
    clients: { type: 'string', default: '20' },
    seed: { type: 'string', default: '200' },
    base: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const CLIENTS = Number(values.clients);
const TOKEN = 'bench-metrics-token-0123456789';

type TConfig = 'base' | 'off' | 'on';
type TRun = { config: TConfig; list: { rps: number; p50: number; p95: number; cpu: number }; inbound: typeof list };
const list = { rps: 0, p50: 0, p95: 0, cpu: 0 };

const customer = (n: number) => `55119${String(10_000_000 + n)}`;

const runOnce = async (config: TConfig): Promise<TRun> => {
  const {
    server,
    token,
    connectionId: id,
    close,
  } = await sandboxServer({
    baseUrl: values.db!,
    env: { JOBS: 'off', METRICS_TOKEN: config === 'on' ? TOKEN : '' },
    customers: Number(values.seed),
    customer,
    ...(config === 'base' ? { bundle: values.base! } : {}),
  });
  let scraper: NodeJS.Timeout | undefined;
  try {
    if (config === 'on') {
      // Prometheus scraping every second (15–60 s in practice): the scrape's own cost is counted in
      scraper = setInterval(() => {
        void request(server.url, { method: 'GET', path: '/metrics', token: TOKEN, discardBody: true }).catch(
          () => undefined,
        );
      }, 1000);
    }
    const lists = await closedLoopGets(server, { clients: CLIENTS, seconds: SECONDS, warmupSeconds: WARMUP }, () => ({
      path: '/api/tickets?status=pending&showAll=true&pageNumber=1',
      token,
    }));
    let sent = 0;
    let n = 0;
    const cpu0 = cpuTimeMs(server.proc.pid);
    const inbound = await closedLoop({
      clients: CLIENTS,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      maxRequests: 1_000_000,
      send: async (_client, keepAlive) => {
        sent++;
        n++;
        return (
          await request(server.url, {
            method: 'POST',
            path: `/api/sandbox/${id}/inbound`,
            token,
            agent: keepAlive,
            body: { from: customer(n % 2000), body: `mensagem ${n}` },
            discardBody: true,
          })
        ).status;
      },
    });
    const inboundCpu = (cpuTimeMs(server.proc.pid) - cpu0) / Math.max(1, sent);

    return {
      config,
      list: { rps: lists.rps, p50: lists.p50, p95: lists.p95, cpu: lists.serverCpuMs },
      inbound: { rps: inbound.rps, p50: inbound.p50, p95: inbound.p95, cpu: inboundCpu },
    };
  } finally {
    if (scraper) clearInterval(scraper);
    await close();
  }
};

const main = async () => {
  const configs: TConfig[] = values.base ? ['base', 'off', 'on'] : ['off', 'on'];
  if (values.base && !existsSync(resolve(values.base, 'apps/server/dist/main.mjs'))) {
    throw new Error(`--base ${values.base}: apps/server/dist/main.mjs is not built there`);
  }
  await takeBenchLock();
  const quiet = await waitForQuiet(Number(process.env.BENCH_MAX_WAIT ?? 600));
  console.log(quietLine(quiet));
  const loadBefore = loadavg();
  const runs: TRun[] = [];
  for (let turn = 0; turn < Number(values.turns); turn++) {
    for (const config of configs) {
      const run = await runOnce(config);
      console.log(
        `  ${config}: list ${fmt(run.list.rps, 0)} req/s p95 ${fmt(run.list.p95)} ms; inbound ${fmt(run.inbound.rps, 0)} msg/s p95 ${fmt(run.inbound.p95)} ms`,
      );
      runs.push(run);
    }
  }
  const loadAfter = loadavg();
  const of = (config: TConfig, part: 'list' | 'inbound', key: 'rps' | 'p50' | 'p95' | 'cpu') =>
    median(runs.filter((r) => r.config === config).map((r) => r[part][key]));
  console.log(
    `\nload average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(`command: node --import tsx bench/metrics-overhead.ts ${process.argv.slice(2).join(' ')}`.trimEnd());
  console.log('\n| benchmark | config | req/s | p50 ms | p95 ms | server CPU ms/req |');
  console.log('|---|---|---|---|---|---|');
  for (const part of ['list', 'inbound'] as const) {
    for (const config of configs) {
      const label = part === 'list' ? `ticket list, ${CLIENTS} agents` : `inbound, ${CLIENTS} in flight`;
      console.log(
        `| ${label} | ${config} | ${fmt(of(config, part, 'rps'), 0)} | ${fmt(of(config, part, 'p50'), 2)} | ${fmt(of(config, part, 'p95'), 2)} | ${fmt(of(config, part, 'cpu'), 3)} |`,
      );
    }
  }
  for (const part of ['list', 'inbound'] as const) {
    const off = of('off', part, 'cpu');
    const on = of('on', part, 'cpu');
    console.log(
      `${part}: metrics on vs off, server CPU per request ${fmt(((on - off) / off) * 100, 1)} %, throughput ${fmt(((of('on', part, 'rps') - of('off', part, 'rps')) / of('off', part, 'rps')) * 100, 1)} %`,
    );
  }
};

await main();
