import { cpuUsage } from 'node:process';
import { createServerMetrics } from '../apps/server/src/modules/ops/metrics';
import { fmt, median } from './lib';
import { quietLine, takeBenchLock, waitForQuiet } from './quiet';

/**
 * What /metrics adds to one request, measured directly (issue 24 item 3, ≤ 2 %): the whole-server A/B of
 * bench/metrics-overhead.ts swings ±20 % from turn to turn on two cores, more than the effect it looks for.
 * Here the code metrics add to a request runs alone, a million times: the HTTP hook that `installHttp`
 * (modules/ops/metrics.ts) adds, as Fastify calls it after each answer; the parts' counters (an inbound delivery counts `received` and
 * `processed`, a send `sent`) and one scrape's rendering with the process's default metrics.
 *
 * The percentages divide by the server CPU per request that bench/metrics-overhead.ts measured with metrics
 * off (`--list-cpu`, `--inbound-cpu`, ms), the same benchmarks the target names.
 *
 *   node --import tsx bench/metrics-cost.ts [--list-cpu 0.136] [--inbound-cpu 1.14] [--scrape-every 15]
 */

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const LIST_CPU_MS = arg('list-cpu', 0.136);
const INBOUND_CPU_MS = arg('inbound-cpu', 1.14);
const SCRAPE_EVERY_S = arg('scrape-every', 15);
const ROUNDS = 7;

const cpuMs = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
};

type THook = (request: unknown, reply: unknown, done: () => void) => void;

/** the hook `installHttp` adds, taken from a stand-in app that only records it */
const hookOf = (metrics: Awaited<ReturnType<typeof createServerMetrics>>) => {
  let hook: THook | undefined;
  metrics.installHttp({
    addHook: (_name: string, fn: THook) => {
      hook = fn;
    },
  } as never);
  if (!hook) throw new Error('installHttp added no hook');
  return hook;
};

await takeBenchLock();
const quiet = await waitForQuiet(Number(process.env.BENCH_MAX_WAIT ?? 600));
console.log(quietLine(quiet));

const metrics = await createServerMetrics('bench');
metrics.bind({
  // a pool's figures; no database behind it (the installation-wide counts, read at most every 5 s with small
  // grouped counts, are left out: their rows fail and the scrape reports zelo_scrape_store_ok 0)
  database: { pool: { totalCount: 10, idleCount: 8, waitingCount: 0 }, db: undefined } as never,
  sockets: () => 40,
  sessions: () =>
    Array.from({ length: 20 }, (_, i) => ({ channel: 'sandbox', status: i % 5 ? 'CONNECTED' : 'qrcode' })),
  inFlight: () => 3,
});
// what Fastify hands the hook: the matched route's pattern, the status and the elapsed time
const routes = ['/api/tickets', '/api/tickets/:ticketId', '/api/messages/:ticketId', '/api/contacts'];
const requests = routes.map((url) => ({ method: 'GET', routeOptions: { url } }));
const replies = [200, 200, 200, 304, 404].map((statusCode) => ({ statusCode, elapsedTime: 3.2 }));
const hook = hookOf(metrics);
const done = () => undefined;
const hookRun = (n: number) => {
  const t = cpuMs();
  for (let i = 0; i < n; i++) hook(requests[i % requests.length], replies[i % replies.length], done);
  return (cpuMs() - t) / n;
};
hookRun(200_000);
const hookMs = median(Array.from({ length: ROUNDS }, () => hookRun(1_000_000)));

const N = 1_000_000;
let start = cpuMs();
for (let i = 0; i < N; i++) {
  metrics.inbound('received');
  metrics.inbound('processed');
}
const inboundCountersMs = (cpuMs() - start) / N;
start = cpuMs();
for (let i = 0; i < N; i++) metrics.send('sandbox', 'sent');
const sendCounterMs = (cpuMs() - start) / N;

await metrics.render();
const renders: number[] = [];
let bytes = 0;
for (let i = 0; i < 50; i++) {
  const t = cpuMs();
  bytes = (await metrics.render()).length;
  renders.push(cpuMs() - t);
}
const scrapeMs = median(renders);

const pct = (part: number, whole: number) => `${fmt((part / whole) * 100, 2)} %`;
console.log(
  `\nthe HTTP hook: ${fmt(hookMs * 1000, 3)} µs CPU per request (median of ${ROUNDS} runs of 1,000,000 calls)`,
);
console.log(
  `inbound counters (received + processed) ${fmt(inboundCountersMs * 1000, 3)} µs; send counter ${fmt(sendCounterMs * 1000, 3)} µs`,
);
console.log(`one scrape's rendering: ${fmt(scrapeMs, 2)} ms CPU, ${bytes} bytes`);
const listAdded = hookMs;
const inboundAdded = hookMs + inboundCountersMs + sendCounterMs;
console.log(
  `\nticket list request (${LIST_CPU_MS} ms server CPU with metrics off): + ${fmt(listAdded * 1000, 2)} µs = ${pct(listAdded, LIST_CPU_MS)}`,
);
console.log(
  `inbound message (${INBOUND_CPU_MS} ms server CPU with metrics off): + ${fmt(inboundAdded * 1000, 2)} µs = ${pct(inboundAdded, INBOUND_CPU_MS)}`,
);
console.log(
  `a scrape every ${SCRAPE_EVERY_S} s: ${fmt((scrapeMs / (SCRAPE_EVERY_S * 1000)) * 100, 3)} % of one core (every 1 s: ${fmt((scrapeMs / 1000) * 100, 2)} %)`,
);
process.exit(0);
