import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startFakeGraph, type TFakeGraph, type TFakeNumber } from '../apps/server/test/fake-graph';
import { createPgDatabase, fmt, json, percentile, removeDir, startServer, tempDir } from './lib';

/**
 * Cloud API webhook benchmark: bursts of `concurrency` signed deliveries POSTed at once by the fake Graph
 * API (each a text message from a new customer), against the production bundle with its rate limits on.
 * - acknowledgement latency: POST to 200 (signature checked, raw body stored), per delivery;
 * - processing: from a burst's first POST until every resulting ticket is listed by the API (contact,
 *   ticket and message stored by the pipeline), as events per second.
 */

export type TCloudWebhookOptions = { concurrency: number; rounds: number };
export const CLOUD_WEBHOOK_DEFAULTS: TCloudWebhookOptions = { concurrency: 200, rounds: 5 };

export type TCloudWebhookResult = {
  database: 'PGlite' | 'PostgreSQL';
  concurrency: number;
  rounds: number;
  deliveries: number;
  errors: number;
  ack: { p50: number; p95: number; p99: number; max: number };
  /** per burst: ms until all its messages were stored */
  processMs: number[];
  eventsPerSecond: number;
  p99TargetMs: number;
};

const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** a company signed up through the public route, its admin's token */
const signUp = async (url: string) => {
  const plans = await json(url, { method: 'GET', path: '/api/plans/list' });
  const email = `cloud-${randomBytes(4).toString('hex')}@bench.test`;
  const password = 'Bench-Pass-1';
  const company = await json(
    url,
    {
      method: 'POST',
      path: '/api/companies/cadastro',
      body: { name: `Cloud bench ${email}`, email, password, phone: '11999998888', planId: plans[0].id },
    },
    201,
  );
  const login = await json(url, { method: 'POST', path: '/api/auth/login', body: { email, password } });

  return { companyId: company.id as number, token: login.token as string };
};

const cloudConnection = async (url: string, token: string, graph: TFakeGraph): Promise<TFakeNumber> => {
  const number = graph.addNumber({ phoneNumberId: `30${Date.now()}` });
  const created = await json(
    url,
    {
      method: 'POST',
      path: '/api/whatsapp',
      token,
      body: {
        name: 'Cloud bench',
        provider: 'cloud-api',
        channelConfig: {
          phoneNumberId: number.phoneNumberId,
          businessAccountId: number.businessAccountId,
          accessToken: number.accessToken,
          appSecret: number.appSecret,
          verifyToken: 'bench-verify',
          graphUrl: graph.url,
          graphVersion: graph.version,
        },
      },
    },
    201,
  );
  number.webhookUrl = `${url}/api/channels/cloud-api/${created.id}/webhook`;
  await until(
    'the Cloud API connection',
    async () => (await json(url, { method: 'GET', path: `/api/whatsapp/${created.id}`, token })).status === 'CONNECTED',
    20_000,
  );

  return number;
};

const pendingCount = async (url: string, token: string) =>
  (await json(url, { method: 'GET', path: '/api/tickets?pageNumber=1&status=pending&showAll=true', token }))
    .count as number;

const run = async (
  database: TCloudWebhookResult['database'],
  opts: TCloudWebhookOptions,
  target: { databaseUrl?: string },
): Promise<TCloudWebhookResult> => {
  const dataDir = tempDir('cloud');
  const graph = await startFakeGraph();
  const server = await startServer({
    dataDir,
    databaseUrl: target.databaseUrl,
    // the fake Graph API listens on loopback: the operator allows it (issue 20: every Graph call is guarded)
    env: { JOBS: 'off', OUTBOUND_ALLOW_HOSTS: '127.0.0.1' },
    timeoutMs: 120_000,
  });
  try {
    const { token } = await signUp(server.url);
    const number = await cloudConnection(server.url, token, graph);
    const latencies: number[] = [];
    const processMs: number[] = [];
    let errors = 0;
    let expected = 0;
    // one warm-up burst, not counted
    for (let round = -1; round < opts.rounds; round++) {
      const bodies = Array.from({ length: opts.concurrency }, (_, i) =>
        graph.messagePayload(
          number.phoneNumberId,
          `55219${String(Math.abs(round + 1) * 100_000 + i).padStart(8, '0')}`,
          { type: 'text', text: { body: `bench ${round} ${i} olá 😀` } },
          { name: `Customer ${round}.${i}` },
        ),
      );
      const t0 = performance.now();
      const answers = await Promise.all(
        bodies.map(async (b) => {
          const start = performance.now();
          try {
            const res = await graph.deliver(number.phoneNumberId, b.payload);
            return { ok: res.status === 200, ms: performance.now() - start };
          } catch {
            return { ok: false, ms: performance.now() - start };
          }
        }),
      );
      expected += answers.filter((a) => a.ok).length;
      await until('the burst stored', async () => (await pendingCount(server.url, token)) >= expected, 120_000);
      const took = performance.now() - t0;
      if (round < 0) continue;
      processMs.push(took);
      for (const a of answers) {
        if (a.ok) latencies.push(a.ms);
        else errors++;
      }
      console.log(`  ${database}: burst ${round + 1}/${opts.rounds}: stored in ${fmt(took, 0)} ms`);
    }
    const sorted = latencies.sort((a, b) => a - b);
    const totalMs = processMs.reduce((a, b) => a + b, 0);

    return {
      database,
      concurrency: opts.concurrency,
      rounds: opts.rounds,
      deliveries: latencies.length + errors,
      errors,
      ack: {
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? Number.NaN,
      },
      processMs,
      eventsPerSecond: latencies.length / (totalMs / 1000),
      p99TargetMs: 250,
    };
  } finally {
    await server.stop();
    await graph.close();
    removeDir(dataDir);
  }
};

export const cloudWebhookPglite = (opts: TCloudWebhookOptions) => run('PGlite', opts, {});

export const cloudWebhookPostgres = async (opts: TCloudWebhookOptions, baseUrl: string) => {
  const db = createPgDatabase(baseUrl, `zelo_bench_${randomBytes(4).toString('hex')}`);
  try {
    return await run('PostgreSQL', opts, { databaseUrl: db.url });
  } finally {
    db.drop();
  }
};

export const cloudWebhookTable = (results: TCloudWebhookResult[]) =>
  [
    '| database | burst | bursts | deliveries | errors | ack p50 ms | ack p95 ms | ack p99 ms | ack max ms | p99 target | stored per burst ms (each) | events/s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.database} | ${r.concurrency} | ${r.rounds} | ${r.deliveries} | ${r.errors} | ${fmt(r.ack.p50)} | ${fmt(r.ack.p95)} | ` +
        `${fmt(r.ack.p99)} | ${fmt(r.ack.max, 0)} | ${r.ack.p99 <= r.p99TargetMs ? 'met' : '**missed**'} (≤ ${r.p99TargetMs}) | ` +
        `${r.processMs.map((ms) => fmt(ms, 0)).join(', ')} | ${fmt(r.eventsPerSecond, 0)} |`,
    ),
  ].join('\n');
