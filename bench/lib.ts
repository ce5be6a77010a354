import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export const ROOT = resolve(import.meta.dirname, '..');
export const ADMIN = { email: 'bench-admin@zelo.test', password: 'Bench-Pass-1' };

export const freePort = () =>
  new Promise<number>((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => done(port));
    });
  });

export const tempDir = (label: string) => mkdtempSync(join(tmpdir(), `zelo-bench-${label}-`));
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

export type TServer = {
  url: string;
  proc: ChildProcess;
  /** process spawn to the ready log line, measured here */
  wallMs: number;
  /** what the server reports itself (from its first line of code to listening) */
  readyMs: number;
  /** CPU time (user + system, all threads) the process used up to ready; less sensitive to a busy machine */
  cpuMs: number;
  stop: () => Promise<void>;
};

/** utime + stime in a line of /proc/<pid>/stat, clock ticks of 10 ms */
const procTicks = (stat: string) => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

/** utime + stime of a live process, ms, from /proc (Linux) */
export const cpuTimeMs = (pid: number | undefined) => {
  try {
    return procTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 10;
  } catch {
    return Number.NaN;
  }
};

/** the machine's CPU time (ms) so far: busy in all, and that of this process, the server and PostgreSQL's */
type TCpuSnapshot = {
  busy: number;
  idle: number;
  bench: number;
  server: number;
  /** each PostgreSQL process's CPU time, by pid (a backend may end or start between two snapshots) */
  postgres: Map<string, number>;
};

/** reads /proc (Linux, clock ticks of 10 ms): where the two cores' time goes while a load runs */
const cpuSnapshot = (serverPid: number | undefined): TCpuSnapshot => {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  const busy = ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle;
  const postgres = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)')) postgres.set(entry, procTicks(stat) * 10);
    } catch {
      // the process ended meanwhile
    }
  }

  const own = process.cpuUsage();

  return {
    busy: busy * 10,
    idle: idle * 10,
    bench: (own.user + own.system) / 1000,
    server: cpuTimeMs(serverPid),
    postgres,
  };
};

/** the shares of the machine's time between two snapshots: `bench 31 · server 24 · pg 38 · other 4 · idle 3 %` */
const cpuShares = (from: TCpuSnapshot, to: TCpuSnapshot) => {
  const total = to.busy - from.busy + (to.idle - from.idle);
  if (!(total > 0)) return '—';
  const pct = (ms: number) => Math.round((100 * ms) / total);
  const bench = to.bench - from.bench;
  const server = to.server - from.server;
  // the processes alive at the end: what they used since the start (all of it for one started meanwhile)
  let postgres = 0;
  for (const [pid, ms] of to.postgres) postgres += Math.max(0, ms - (from.postgres.get(pid) ?? 0));
  const other = to.busy - from.busy - bench - server - postgres;

  return `bench ${pct(bench)} · server ${pct(server)} · pg ${pct(postgres)} · other ${pct(Math.max(0, other))} · idle ${pct(to.idle - from.idle)} %`;
};

/**
 * What a load costs between `start()` (after its warm-up) and `finish()`: the server's CPU time (ms), the machine's
 * shares (cpuShares) and the p99 of this process's event-loop delay (ms: a late loop adds to every latency it
 * measures).
 */
export const loadMeter = (serverPid: number | undefined) => {
  let from: TCpuSnapshot | undefined;
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });

  return {
    start: () => {
      from = cpuSnapshot(serverPid);
      loopDelay.enable();
    },
    finish: () => {
      loopDelay.disable();
      const to = cpuSnapshot(serverPid);

      return {
        serverCpuMs: from ? to.server - from.server : Number.NaN,
        machine: from ? cpuShares(from, to) : '—',
        benchLoopP99: loopDelay.count > 0 ? loopDelay.percentile(99) / 1e6 : Number.NaN,
      };
    },
  };
};

/**
 * How the server is started: by default the production bundle (`node apps/server/dist/main.mjs`, what
 * `npm start` runs; built here first when missing or stale, not timed); BENCH_SERVER=tsx runs the
 * sources through tsx (`node --import tsx apps/server/src/main.ts`, the development path).
 */
let bundleChecked = false;
const serverArgs = () => {
  if (process.env.BENCH_SERVER === 'tsx') return ['--import', 'tsx', 'apps/server/src/main.ts'];
  if (!bundleChecked) {
    execFileSync(process.execPath, ['apps/server/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
    bundleChecked = true;
  }

  return ['apps/server/dist/main.mjs'];
};

/** Starts the server (see serverArgs) and resolves on its ready log line. */
export const startServer = async (opts: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** another build's server bundle (a before/after comparison) instead of this tree's */
  bundle?: string;
}): Promise<TServer> => {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: opts.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    NODE_ENV: 'production',
    ...opts.env,
  };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;

  const args = opts.bundle ? [opts.bundle] : serverArgs();
  const started = performance.now();
  // BENCH_NODE_ARGS adds node flags to the server, e.g. "--cpu-prof --cpu-prof-dir=bench/results/prof"
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => proc.once('exit', () => done()));
  let output = '';

  const ready = await new Promise<{ wallMs: number; readyMs: number; cpuMs: number }>((done, fail) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      fail(new Error(`server not ready after ${opts.timeoutMs ?? 60_000} ms:\n${output.slice(-2000)}`));
    }, opts.timeoutMs ?? 60_000);
    let buffered = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      const wallMs = performance.now() - started;
      buffered += chunk.toString();
      output += chunk.toString();
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
        if (!line.includes('"readyMs"')) continue;
        clearTimeout(timer);
        done({ wallMs, readyMs: Number(JSON.parse(line).readyMs), cpuMs: cpuTimeMs(proc.pid) });
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited (${code}) before ready:\n${output.slice(-2000)}`));
    });
  });

  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const killer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  };

  return { url: `http://127.0.0.1:${port}`, proc, ...ready, stop };
};

/** A throwaway PostgreSQL database (created with psql on the server TEST/BENCH_DATABASE_URL points at). */
export const createPgDatabase = (baseUrl: string, name: string) => {
  execFileSync('psql', [baseUrl, '-v', 'ON_ERROR_STOP=1', '-qc', `create database ${name}`], { stdio: 'inherit' });
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;

  return {
    url: url.toString(),
    drop: () =>
      execFileSync('psql', [baseUrl, '-qc', `drop database if exists ${name} with (force)`], { stdio: 'inherit' }),
  };
};

// ---------------------------------------------------------------- HTTP

export const agent = (sockets: number) => new http.Agent({ keepAlive: true, maxSockets: sockets });

export type TResponse = { status: number; body: string };

/**
 * `BENCH_ACCEPT_ENCODING="br, gzip"` makes every request accept compressed answers, as browsers do (issue 23 item 1:
 * the API compression's A/B); unset, answers come plain as before.
 */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? '';
const decoded = (encoding: string | undefined, bytes: Buffer) =>
  (encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString();

export const request = (
  base: string,
  opts: {
    method: string;
    path: string;
    body?: unknown;
    token?: string;
    agent?: http.Agent;
    timeoutMs?: number;
    /** read the answer's bytes without keeping or decoding them (load loops that check the status only) */
    discardBody?: boolean;
    /** more request headers (say `accept-encoding`, as a browser sends it) */
    headers?: Record<string, string>;
  },
) =>
  new Promise<TResponse>((done, fail) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = { ...opts.headers };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (ACCEPT_ENCODING) headers['accept-encoding'] = ACCEPT_ENCODING;
    const req = http.request(
      `${base}${opts.path}`,
      { method: opts.method, headers, agent: opts.agent, timeout: opts.timeoutMs ?? 10_000 },
      (res) => {
        if (opts.discardBody) {
          res.on('end', () => done({ status: res.statusCode ?? 0, body: '' }));
          res.on('error', fail);
          res.resume();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, body: decoded(res.headers['content-encoding'], Buffer.concat(chunks)) }),
        );
        res.on('error', fail);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', fail);
    req.end(payload);
  });

export const json = async (base: string, opts: Parameters<typeof request>[1], expect = 200) => {
  const res = await request(base, opts);
  if (res.status !== expect) throw new Error(`${opts.method} ${opts.path}: ${res.status} ${res.body.slice(0, 300)}`);

  return res.body ? JSON.parse(res.body) : undefined;
};

// ---------------------------------------------------------------- statistics

export const percentile = (sorted: number[], p: number) => {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;

  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
};

export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export const fmt = (ms: number, digits = 1) => (Number.isFinite(ms) ? ms.toFixed(digits) : '—');

export const machine = () => {
  const cpus = (() => {
    try {
      return execFileSync('nproc', { encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  })();
  const model = (() => {
    try {
      const info = execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], {
        encoding: 'utf8',
      });
      return info.trim();
    } catch {
      return 'unknown CPU';
    }
  })();
  const pg = (() => {
    try {
      return execFileSync('psql', ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      return 'psql not found';
    }
  })();

  return `${cpus} cores (${model}), Node ${process.version}, ${pg}`;
};

/**
 * An open loop: requests start at random (Poisson) moments averaging `rate` per second, whether or not
 * the earlier ones have answered, for `warmupSeconds` (not counted) then `seconds`. Unlike a closed loop
 * (each client waits for its answer), the latency measured is the service time at that load, not the
 * queue a saturating client builds. `fire(counted)` sends one request.
 */
export const pacedLoop = async (opts: {
  rate: number;
  seconds: number;
  warmupSeconds: number;
  fire: (counted: boolean) => Promise<void>;
}) => {
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const countFrom = start + opts.warmupSeconds * 1000;
  const stopAt = countFrom + opts.seconds * 1000;
  let next = start;
  while (next < stopAt) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const p = opts.fire(next >= countFrom).catch(() => undefined);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    next += (-Math.log(1 - Math.random()) / opts.rate) * 1000;
  }
  await Promise.all(inFlight);

  return (stopAt - countFrom) / 1000;
};

// ---------------------------------------------------------------- loads

export const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);

  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
};

/**
 * The measured window of a closed loop: `counting` after the warm-up, `stopAt` `seconds` later (and a hard stop
 * 30 s past that, should every request hang); `end()` clears the timers and answers the seconds measured.
 */
export const measureWindow = (warmupSeconds: number, seconds: number) => {
  let start = 0;
  const window = { counting: false, stopAt: Number.POSITIVE_INFINITY, end: () => 0 };
  const warm = setTimeout(() => {
    window.counting = true;
    start = performance.now();
    window.stopAt = start + seconds * 1000;
  }, warmupSeconds * 1000);
  const guard = setTimeout(
    () => {
      window.stopAt = 0;
    },
    (warmupSeconds + seconds + 30) * 1000,
  );
  window.end = () => {
    clearTimeout(guard);
    clearTimeout(warm);

    return (performance.now() - start) / 1000;
  };

  return window;
};

/** `clients` loops, each sending its next request when the last one answered; warm-up not counted */
export const closedLoop = async (opts: {
  clients: number;
  seconds: number;
  warmupSeconds: number;
  maxRequests: number;
  send: (client: number, keepAlive: http.Agent) => Promise<number>;
}) => {
  const keepAlive = agent(opts.clients);
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const window = measureWindow(opts.warmupSeconds, opts.seconds);
  const client = async (index: number) => {
    while (performance.now() < window.stopAt && issued < opts.maxRequests) {
      const counted = window.counting;
      if (counted) issued++;
      const t0 = performance.now();
      let ok = false;
      try {
        ok = (await opts.send(index, keepAlive)) === 200;
      } catch {
        ok = false;
      }
      const took = performance.now() - t0;
      if (!counted || !window.counting) continue;
      if (ok) latencies.push(took);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, (_, i) => client(i)));
  const elapsed = window.end();
  keepAlive.destroy();

  return { requests: latencies.length, errors, seconds: elapsed, rps: latencies.length / elapsed, ...stats(latencies) };
};

/**
 * GET requests in a closed loop against a server process (`closedLoop`), each client asking for
 * `pick(client)`, with the server's CPU per request over the measured part (after the warm-up).
 */
export const closedLoopGets = async (
  server: Pick<TServer, 'url' | 'proc'>,
  opts: { clients: number; seconds: number; warmupSeconds: number },
  pick: (client: number) => { path: string; token: string; headers?: Record<string, string> },
) => {
  let sent = 0;
  let warmSent = 0;
  const meter = loadMeter(server.proc.pid);
  const warmed = setTimeout(() => {
    warmSent = sent;
    meter.start();
  }, opts.warmupSeconds * 1000);
  const r = await closedLoop({
    ...opts,
    maxRequests: 1_000_000,
    send: async (client, keepAlive) => {
      const t = pick(client);
      sent++;
      return (
        await request(server.url, {
          method: 'GET',
          path: t.path,
          token: t.token,
          headers: t.headers,
          agent: keepAlive,
          discardBody: true,
        })
      ).status;
    },
  });
  clearTimeout(warmed);
  const cost = meter.finish();

  return { ...r, ...cost, serverCpuMs: cost.serverCpuMs / Math.max(1, sent - warmSent) };
};
