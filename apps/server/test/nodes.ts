import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openPglite } from '../src/db/client';
import { TEMPLATE_FILE } from './global-setup';

/**
 * Real server processes for the multi-node tests (failover.test.ts): `node --import tsx src/main.ts` on a
 * free loopback port, its output kept (shown when it does not start), stopped by the signal a test chooses.
 */

const MAIN = resolve(import.meta.dirname, '../src/main.ts');

export const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

/**
 * Makes `<dataDir>/db` the run's migrated PGlite template (global-setup.ts) when the run has one: a server then
 * starts on a migrated database instead of creating and migrating one (~15 s on the 2-core machine). Answers
 * whether it did; without a template the server makes its database itself, as it would anyway.
 */
export const dataDirFromTemplate = async (dataDir: string) => {
  if (!existsSync(TEMPLATE_FILE)) return false;
  const database = await openPglite({
    dataDir: join(dataDir, 'db'),
    loadDataDir: new Blob([readFileSync(TEMPLATE_FILE)]),
  });
  await database.close();

  return true;
};

export type TNode = {
  name: string;
  url: string;
  proc: ChildProcess;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
};

/**
 * `env` is added to the test run's own variables, or to `baseEnv` when given (a test that must keep the run's
 * DATABASE_URL or secret key away from the process); a `DATA_DIR` in `env` is used as it is, else one is made.
 */
export const startNode = async (
  name: string,
  env: Record<string, string>,
  { baseEnv = process.env }: { baseEnv?: NodeJS.ProcessEnv } = {},
): Promise<TNode> => {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), `zelo-${name}-`));
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"readyMs"')) {
        clearTimeout(timer);
        ok();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    void exited.then((code) => fail(new Error(`${name} exited with ${code}:\n${output}`)));
  });

  return { name, url: `http://127.0.0.1:${port}`, proc, dataDir, output: () => output, exited };
};

/** ends a node (if still running) and removes its folder */
export const endNode = async (node: TNode) => {
  if (node.proc.exitCode === null && node.proc.signalCode === null) {
    node.proc.kill('SIGCONT');
    node.proc.kill('SIGKILL');
  }
  await node.exited;
  rmSync(node.dataDir, { recursive: true, force: true });
};

export const api = async (node: TNode, method: string, path: string, token?: string, body?: unknown) => {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(40_000),
  });

  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
};

/** the sum of the samples of a node's /metrics whose labels include the given ones */
export const metric = async (node: TNode, token: string, name: string, labels: Record<string, string> = {}) => {
  const res = await fetch(`${node.url}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(5_000),
  });
  let sum = 0;
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }

  return sum;
};

export const until = async (check: () => Promise<boolean>, timeoutMs = 20_000, stepMs = 100) => {
  const end = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, stepMs));
  }
};

/**
 * A JSON POST whose body is sent in two parts: the request is in flight on the server (headers read, body
 * not) until `finish()` sends the rest.
 */
export const slowPost = (node: TNode, path: string, token: string, body: unknown) => {
  const payload = Buffer.from(JSON.stringify(body));
  const req = http.request(`${node.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': payload.length },
  });
  const answer = new Promise<{ status: number; body: any }>((ok, fail) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', fail);
  });
  req.write(payload.subarray(0, 5));

  return { answer, finish: () => req.end(payload.subarray(5)) };
};
