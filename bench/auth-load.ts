import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import {
  ADMIN,
  closedLoop,
  createPgDatabase,
  fmt,
  json,
  removeDir,
  request,
  startServer,
  tempDir,
  type TServer,
} from './lib';

export type TLoadResult = {
  database: 'PGlite' | 'PostgreSQL';
  route: string;
  concurrency: number;
  seconds: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  p95TargetMs?: number;
};

type TUser = { email: string; password: string; token: string };

/** One company (with its first admin) per client, so no client revokes another's session. */
const createUsers = async (server: TServer, count: number): Promise<TUser[]> => {
  const superLogin = await json(server.url, { method: 'POST', path: '/api/auth/login', body: ADMIN });
  const plans = await json(server.url, { method: 'GET', path: '/api/plans/list' });
  const users: TUser[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-${i}-${randomBytes(3).toString('hex')}@zelo.test`;
    const password = 'Bench-User-1';
    await json(
      server.url,
      {
        method: 'POST',
        path: '/api/companies',
        token: superLogin.token,
        body: { name: `Bench ${i}`, email, planId: plans[0].id, password },
      },
      201,
    );
    users.push({ email, password, token: '' });
  }

  return users;
};

const loginAll = async (server: TServer, users: TUser[]) => {
  for (const user of users) {
    const res = await json(server.url, {
      method: 'POST',
      path: '/api/auth/login',
      body: { email: user.email, password: user.password },
    });
    user.token = res.token;
  }
};

/** `concurrency` clients in a closed loop (lib.ts `closedLoop`), at most `maxRequests` in all */
const load = (opts: {
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  maxRequests: number;
  send: (client: number, keepAlive: http.Agent) => Promise<number>;
}) => closedLoop({ ...opts, clients: opts.concurrency });

const runAuthLoad = async (
  database: TLoadResult['database'],
  opts: { concurrency: number; seconds: number; warmupSeconds: number; databaseUrl?: string },
) => {
  const dataDir = tempDir(`load-${database.toLowerCase()}`);
  const server = await startServer({
    dataDir,
    databaseUrl: opts.databaseUrl,
    env: { RATE_LIMITS: 'off', JOBS: 'off' },
  });
  const results: TLoadResult[] = [];
  try {
    const users = await createUsers(server, opts.concurrency);
    const common = {
      concurrency: opts.concurrency,
      seconds: opts.seconds,
      warmupSeconds: opts.warmupSeconds,
      maxRequests: 500_000,
    };

    console.log(`  ${database}: POST /api/auth/login, ${opts.concurrency} clients, ${opts.seconds} s`);
    const login = await load({
      ...common,
      send: async (i, keepAlive) =>
        (
          await request(server.url, {
            method: 'POST',
            path: '/api/auth/login',
            body: { email: users[i].email, password: users[i].password },
            agent: keepAlive,
          })
        ).status,
    });
    results.push({ database, route: 'POST /api/auth/login', concurrency: opts.concurrency, ...login });

    // fresh tokens: the login load revoked every session but each user's last
    await loginAll(server, users);
    console.log(`  ${database}: GET /api/auth/me, ${opts.concurrency} clients, ${opts.seconds} s`);
    const me = await load({
      ...common,
      send: async (i, keepAlive) =>
        (await request(server.url, { method: 'GET', path: '/api/auth/me', token: users[i].token, agent: keepAlive }))
          .status,
    });
    results.push({ database, route: 'GET /api/auth/me', concurrency: opts.concurrency, ...me, p95TargetMs: 5 });

    // the same route with one client: the service time of one request, without queueing behind 19 others
    console.log(`  ${database}: GET /api/auth/me, 1 client, ${opts.seconds} s`);
    const single = await load({
      ...common,
      concurrency: 1,
      send: async (_i, keepAlive) =>
        (await request(server.url, { method: 'GET', path: '/api/auth/me', token: users[0].token, agent: keepAlive }))
          .status,
    });
    results.push({ database, route: 'GET /api/auth/me', concurrency: 1, ...single, p95TargetMs: 5 });
  } finally {
    await server.stop();
    removeDir(dataDir);
  }

  return results;
};

export const authLoadPglite = (opts: { concurrency: number; seconds: number; warmupSeconds: number }) =>
  runAuthLoad('PGlite', opts);

export const authLoadPostgres = async (
  opts: { concurrency: number; seconds: number; warmupSeconds: number },
  baseUrl: string,
) => {
  const db = createPgDatabase(baseUrl, `zelo_bench_${randomBytes(4).toString('hex')}`);
  try {
    return await runAuthLoad('PostgreSQL', { ...opts, databaseUrl: db.url });
  } finally {
    db.drop();
  }
};

export const loadTable = (results: TLoadResult[]) => {
  const rows = results.map((r) => {
    const verdict =
      r.p95TargetMs === undefined
        ? '—'
        : r.p95 <= r.p95TargetMs
          ? `met (≤ ${r.p95TargetMs})`
          : `**missed** (≤ ${r.p95TargetMs})`;
    return (
      `| ${r.route} | ${r.database} | ${r.concurrency} | ${fmt(r.seconds, 1)} | ${r.requests} | ${r.errors} | ` +
      `${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p95, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.max, 1)} | ${verdict} |`
    );
  });

  return [
    '| route | database | clients | s | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms | p95 target ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
};
