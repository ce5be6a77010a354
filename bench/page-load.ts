/**
 * The web app as a phone on a slow connection sees it (issue 23 item 1): the production server (`node
 * apps/server/dist/main.mjs`, what `npm start` runs) serving the built app (`apps/web/dist`), opened in Debian's
 * Chromium through playwright-core with the network throttled over CDP (`Network.emulateNetworkConditions`: 1.6
 * Mbit/s down, 750 Kbit/s up, 150 ms round trip, Lighthouse's mobile profile; the CPU is not slowed down).
 *
 * Per run, a fresh browser context (empty cache):
 * - **login page**: from `goto('/tickets')` (logged out: the app shows its login page) until the e-mail field is
 *   visible;
 * - **login → inbox**: from the click on "log in" until the first ticket row of `/tickets` (where the login returns)
 *   is visible;
 * - **inbox again**: `goto('/tickets')` in the same context (its cache warm, its session cookie kept) until the
 *   first ticket row is visible: what a returning agent waits for.
 * Each phase records the bytes the browser received (`encodedDataLength`, headers included), its JavaScript part
 * and the number of requests. The company is a fresh signup with a sandbox connection and `--tickets` customers who
 * each wrote once, their tickets accepted by the admin (open: the inbox's first tab).
 *
 * `--root DIR` measures another checkout (its `apps/web/dist` must be built; its server bundle is built here when
 * stale): how the "before" figures were taken from a copy of main. Run it alone on the machine
 * (`/work/heavy --exclusive` here); the 1-minute load average before and after goes into the result.
 *
 *   node --import tsx bench/page-load.ts [--runs 5] [--tickets 30] [--root DIR]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CDPSession, chromium, type Page } from 'playwright-core';
import { ADMIN, fmt, freePort, json, median, ROOT, removeDir, tempDir } from './lib';
import { quietLine, takeBenchLock, waitForQuiet } from './quiet';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    tickets: { type: 'string', default: '30' },
    root: { type: 'string', default: ROOT },
    label: { type: 'string', default: '' },
  },
});

/** Lighthouse's mobile network: 1.6 Mbit/s down, 750 Kbit/s up, 150 ms round trip */
export const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

type TTraffic = { bytes: number; jsBytes: number; requests: number };
type TPhase = { ms: number } & TTraffic;
type TRun = { login: TPhase; inbox: TPhase; again: TPhase };

/** the production server of `root` on a free port, with its own data folder */
const startServer = async (root: string, dataDir: string) => {
  execFileSync(process.execPath, [resolve(root, 'apps/server/build.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (!existsSync(resolve(root, 'apps/web/dist/index.html'))) throw new Error(`build the web app of ${root} first`);
  const port = await freePort();
  const proc: ChildProcess = spawn(process.execPath, [resolve(root, 'apps/server/dist/main.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    stop: async () => {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
};

/** a company with a connected sandbox connection and `tickets` customers who wrote once */
const seedCompany = async (url: string, tickets: number) => {
  const email = `page-${randomBytes(3).toString('hex')}@example.com`;
  const password = 'Bench-Pass-1';
  const plans = await json(url, { method: 'GET', path: '/api/plans/list' });
  await json(
    url,
    {
      method: 'POST',
      path: '/api/companies/cadastro',
      body: { name: 'Page load bench', email, password, phone: '11999998888', planId: plans[0].id },
    },
    201,
  );
  const { token } = await json(url, { method: 'POST', path: '/api/auth/login', body: { email, password } });
  const conn = await json(
    url,
    { method: 'POST', path: '/api/whatsapp', token, body: { name: 'Bench', provider: 'sandbox' } },
    201,
  );
  const status = async () => (await json(url, { method: 'GET', path: `/api/whatsapp/${conn.id}`, token })).status;
  const waitFor = async (wanted: string) => {
    const end = Date.now() + 30_000;
    while ((await status()) !== wanted) {
      if (Date.now() > end) throw new Error(`connection never ${wanted}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  await waitFor('qrcode');
  await json(url, { method: 'POST', path: `/api/sandbox/${conn.id}/scan`, token, body: {} });
  await waitFor('CONNECTED');
  for (let i = 0; i < tickets; i++) {
    const from = `55119${String(70000000 + i)}`;
    await json(url, {
      method: 'POST',
      path: `/api/sandbox/${conn.id}/inbound`,
      token,
      body: { from, name: `Cliente ${i + 1}`, type: 'text', body: `Olá, preciso de ajuda com o pedido ${i + 1}` },
    });
  }
  // the inbound pipeline stores them in the background: wait until the list has them all
  const end = Date.now() + 60_000;
  for (;;) {
    const list = await json(url, { method: 'GET', path: '/api/tickets?status=pending&showAll=true', token });
    if (list.count >= tickets) break;
    if (Date.now() > end) throw new Error('the customers’ tickets did not all arrive');
    await new Promise((r) => setTimeout(r, 300));
  }
  // the agent took them all: they are what the inbox's first tab ("in service") lists
  for (let page = 1; ; page++) {
    const list = await json(url, {
      method: 'GET',
      path: `/api/tickets?status=pending&showAll=true&pageNumber=1`,
      token,
    });
    for (const ticket of list.tickets) {
      await json(url, { method: 'PUT', path: `/api/tickets/${ticket.id}`, token, body: { status: 'open' } });
    }
    if (!list.hasMore || page > 100) break;
  }

  return { email, password };
};

/** counts what the page receives over CDP until `take()` */
const watchTraffic = (cdp: CDPSession) => {
  const types = new Map<string, string>();
  let traffic: TTraffic = { bytes: 0, jsBytes: 0, requests: 0 };
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => {
    traffic.bytes += e.encodedDataLength;
    traffic.requests += 1;
    if (types.get(e.requestId) === 'Script') traffic.jsBytes += e.encodedDataLength;
  });

  return {
    take: () => {
      const taken = traffic;
      traffic = { bytes: 0, jsBytes: 0, requests: 0 };

      return taken;
    },
  };
};

const firstTicket = (page: Page) => page.locator('[data-testid^="ticket-row-"]').first().waitFor({ timeout: 120_000 });

const oneRun = async (
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  url: string,
  user: { email: string; password: string },
  throttle = true,
): Promise<TRun> => {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, locale: 'pt-BR' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (throttle) await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  const traffic = watchTraffic(cdp);
  try {
    let t0 = performance.now();
    // the inbox asked for while logged out: the login page, then back to /tickets after the login
    await page.goto(`${url}/tickets`, { waitUntil: 'commit' });
    await page.getByTestId('login-email').waitFor({ timeout: 120_000 });
    const login = { ms: performance.now() - t0, ...traffic.take() };

    await page.getByTestId('login-email').fill(user.email);
    await page.getByTestId('login-password').fill(user.password);
    t0 = performance.now();
    await page.getByTestId('login-submit').click();
    await firstTicket(page).catch(async (err) => {
      await page.screenshot({ path: resolve(ROOT, 'bench/results/page-load-failure.png') });
      throw err;
    });
    const inbox = { ms: performance.now() - t0, ...traffic.take() };

    t0 = performance.now();
    await page.goto(`${url}/tickets`, { waitUntil: 'commit' });
    await firstTicket(page);
    const again = { ms: performance.now() - t0, ...traffic.take() };

    return { login, inbox, again };
  } finally {
    await context.close();
  }
};

const kb = (bytes: number) => `${fmt(bytes / 1024, 0)} KB`;

const main = async () => {
  await takeBenchLock();
  console.log(quietLine(await waitForQuiet(Number(process.env.BENCH_MAX_WAIT ?? 600))));
  const runs = Number(values.runs);
  const root = resolve(values.root ?? ROOT);
  const dataDir = tempDir('page-load');
  const loadBefore = loadavg()[0];
  const server = await startServer(root, dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const results: TRun[] = [];
  try {
    const user = await seedCompany(server.url, Number(values.tickets));
    // one unthrottled visit first, so the server's own first-use costs (file handles, the first queries) are not timed
    await oneRun(browser, server.url, user, false);
    for (let i = 0; i < runs; i++) {
      const run = await oneRun(browser, server.url, user);
      results.push(run);
      console.log(
        `  run ${i + 1}/${runs}: login page ${fmt(run.login.ms, 0)} ms (${kb(run.login.bytes)}), login → inbox ${fmt(run.inbox.ms, 0)} ms (${kb(run.inbox.bytes)}), inbox again ${fmt(run.again.ms, 0)} ms (${kb(run.again.bytes)})`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
    removeDir(dataDir);
  }
  const loadAfter = loadavg()[0];
  const row = (name: string, pick: (r: TRun) => TPhase) => {
    const phases = results.map(pick);
    return `| ${name} | ${fmt(median(phases.map((p) => p.ms)), 0)} | ${phases.map((p) => fmt(p.ms, 0)).join(', ')} | ${kb(median(phases.map((p) => p.bytes)))} | ${kb(median(phases.map((p) => p.jsBytes)))} | ${median(phases.map((p) => p.requests))} |`;
  };
  const table = [
    `Page load on 1.6 Mbit/s / 750 Kbit/s / 150 ms RTT (${values.label || root}), ${runs} runs, load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
    '',
    '| phase | median ms | runs (ms) | received (median) | of it JavaScript | requests |',
    '|---|---|---|---|---|---|',
    row('login page (cold cache)', (r) => r.login),
    row('login → first ticket visible', (r) => r.inbox),
    row('/tickets again (warm cache)', (r) => r.again),
  ].join('\n');
  console.log(`\n${table}`);
  const dir = resolve(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    resolve(dir, `page-load-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ root, runs: results, loadBefore, loadAfter, table }, null, 2),
  );
};

await main();
