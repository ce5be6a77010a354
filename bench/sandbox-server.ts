import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { json, removeDir, startServer, type TServer, tempDir } from './lib';

/**
 * A server process on a fresh PostgreSQL database with its admin logged in, a sandbox connection scanned and
 * CONNECTED, and `customers` customers who each wrote once (their tickets pending): what the out-of-process
 * comparisons (bench/metrics-overhead.ts, bench/before-after.ts) start each run from. `bundle` runs another
 * build's server (a directory holding a built `apps/server/dist/main.mjs`). `close` stops it and drops the database.
 */
export const sandboxServer = async (opts: {
  baseUrl: string;
  env: Record<string, string>;
  customers: number;
  customer: (n: number) => string;
  bundle?: string;
}) => {
  const admin = new pg.Client({ connectionString: opts.baseUrl });
  await admin.connect();
  const name = `sbx_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const url = new URL(opts.baseUrl);
  url.pathname = `/${name}`;
  const dataDir = tempDir('sandbox-server');
  const close = async (server?: TServer) => {
    await server?.stop();
    removeDir(dataDir);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  let server: TServer | undefined;
  try {
    server = await startServer({
      dataDir,
      databaseUrl: url.toString(),
      env: { RATE_LIMITS: 'off', SANDBOX_OPENING_MS: '10', ...opts.env },
      timeoutMs: 120_000,
      ...(opts.bundle ? { bundle: resolve(opts.bundle, 'apps/server/dist/main.mjs') } : {}),
    });
    const base = server.url;
    const { token, user } = await json(base, {
      method: 'POST',
      path: '/api/auth/login',
      body: { email: 'bench-admin@zelo.test', password: 'Bench-Pass-1' },
    });
    const { id } = await json(base, { method: 'POST', path: '/api/whatsapp', token, body: { name: 'Bench' } }, 201);
    for (let i = 0; ; i++) {
      if ((await json(base, { method: 'GET', path: `/api/whatsapp/${id}`, token })).status === 'qrcode') break;
      if (i > 200) throw new Error('no QR');
      await new Promise((r) => setTimeout(r, 50));
    }
    await json(base, { method: 'POST', path: `/api/sandbox/${id}/scan`, token, body: {} });
    for (let i = 0; i < opts.customers; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, opts.customers - i) }, (_, j) =>
          json(base, {
            method: 'POST',
            path: `/api/sandbox/${id}/inbound`,
            token,
            body: { from: opts.customer(i + j), body: `olá ${i + j}` },
          }),
        ),
      );
    }
    const running = server;

    return {
      server: running,
      token: token as string,
      userId: user.id as number,
      connectionId: id as number,
      close: () => close(running),
    };
  } catch (err) {
    await close(server);
    throw err;
  }
};
