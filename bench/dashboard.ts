import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  ADMIN,
  closedLoopGets,
  createPgDatabase,
  fmt,
  json,
  removeDir,
  startServer,
  type TServer,
  tempDir,
} from './lib';

/**
 * The dashboard over a 90-day window (`GET /api/dashboard?days=90`, `/dashboard/ticketsUsers` and
 * `/dashboard/ticketsDay` over the last 90 days), PostgreSQL, 20 closed-loop clients, no writes. One company
 * holding `cycles` attendance cycles (default 1,000,000 `ticket_trackings` rows on 200,000 tickets, 5 each),
 * spread evenly over the last `days` days (default 365, so a 90-day window holds about a quarter of them),
 * 8 attendants, 90 % accepted, a quarter of the tickets' last cycles unfinished (5 %), a rating on every fifth; written in SQL with generate_series.
 */

export const DASHBOARD_DEFAULTS = { cycles: 1_000_000, perTicket: 5, days: 365, agents: 8, p95TargetMs: 60 };

export type TDashboardResult = {
  what: string;
  /** answers kept until the company's next change (the default) or LIST_ANSWERS=off (the SQL every time) */
  answers: 'kept' | 'off';
  clients: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  serverCpuMs: number;
  p95TargetMs: number;
};

const psql = (url: string, sql: string) =>
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql], { encoding: 'utf8' }).trim();

/**
 * contacts, tickets, cycles and ratings written in SQL (the API would take hours), with the triggers off (the
 * dashboard's delta triggers would append ~4 M deltas); `rebuildRollup` then builds the rollup from them
 */
export const generateCycles = (url: string, companyId: number, userIds: number[], opts: typeof DASHBOARD_DEFAULTS) => {
  const tickets = Math.ceil(opts.cycles / opts.perTicket);
  const users = `array[${userIds.join(',')}]::int[]`;
  const spanSeconds = opts.days * 86_400;
  psql(
    url,
    `set session_replication_role = replica;
     insert into contacts (company_id, name, number, created_at)
       select ${companyId}, 'Dash customer ' || g, '5521' || lpad(g::text, 9, '0'),
         now() - make_interval(secs => ${spanSeconds}::float8 * (${tickets} - g) / ${tickets})
       from generate_series(1, ${tickets}) g;
     insert into tickets (company_id, contact_id, status, user_id, created_at, updated_at)
       select ${companyId}, c.id, case when c.n % 50 = 0 then 'open' when c.n % 50 = 1 then 'pending' else 'closed' end,
         (${users})[1 + c.n % ${userIds.length}], c.created_at, c.created_at
       from (select id, created_at, row_number() over (order by id) as n from contacts where company_id = ${companyId}) c;
     insert into ticket_trackings (company_id, ticket_id, user_id, created_at, queued_at, started_at, rating_at, finished_at, rated)
       select ${companyId}, t.ticket_id, case when t.h % 10 = 0 then null else (${users})[1 + t.h % ${userIds.length}] end,
         t.at, t.at,
         case when t.h % 10 = 0 then null else t.at + make_interval(secs => 30 + t.h % 1800) end,
         case when t.h % 10 <> 0 and t.h % 5 = 1 then t.at + make_interval(secs => 600 + t.h % 7200) end,
         case when t.last and t.h % 4 = 3 then null else t.at + make_interval(secs => 900 + t.h % 7200) end,
         t.h % 10 <> 0 and t.h % 5 = 1
       from (
         select tk.id as ticket_id, abs(hashint4(g)) as h, g % ${opts.perTicket} = 0 as last,
           now() - make_interval(secs => ${spanSeconds}::float8 * (${opts.cycles} - g) / ${opts.cycles}) as at
         from generate_series(1, ${opts.cycles}) g
         join (select id, row_number() over (order by id) as n from tickets where company_id = ${companyId}) tk
           on tk.n = 1 + (g - 1) / ${opts.perTicket}
       ) t;
     insert into user_ratings (company_id, ticket_id, ticket_tracking_id, user_id, rate, created_at)
       select company_id, ticket_id, id, user_id, 1 + id % 3, finished_at
       from ticket_trackings where company_id = ${companyId} and rated and finished_at is not null;`,
  );
  for (const table of ['contacts', 'tickets', 'ticket_trackings', 'user_ratings', 'users'])
    psql(url, `vacuum analyze ${table}`);
};

/** the migration's backfill (`dashboard_rebuild()`) over what was generated; answers its milliseconds */
export const rebuildRollup = (url: string) => {
  const started = Date.now();
  psql(url, 'select dashboard_rebuild()');
  const ms = Date.now() - started;
  psql(url, 'vacuum analyze dashboard_rollup');
  psql(url, 'vacuum analyze dashboard_deltas');

  return ms;
};

export const dashboardPostgres = async (
  opts: typeof DASHBOARD_DEFAULTS & { concurrency: number; seconds: number; warmupSeconds: number },
  baseUrl: string,
): Promise<TDashboardResult[]> => {
  const db = createPgDatabase(baseUrl, `zelo_bench_dash_${randomBytes(4).toString('hex')}`);
  const dataDir = tempDir('dashboard');
  const results: TDashboardResult[] = [];
  const measure = async (server: TServer, admin: string, answers: 'kept' | 'off') => {
    const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
    const from = day(89 * 86_400_000);
    const to = day(0);
    const targets = [
      { what: 'GET /api/dashboard?days=90', path: '/api/dashboard?days=90' },
      {
        what: 'GET /api/dashboard/ticketsUsers (90 days)',
        path: `/api/dashboard/ticketsUsers?initialDate=${from}&finalDate=${to}`,
      },
      {
        what: 'GET /api/dashboard/ticketsDay (90 days)',
        path: `/api/dashboard/ticketsDay?initialDate=${from}&finalDate=${to}`,
      },
    ];
    for (const target of targets) {
      const first = await json(server.url, { method: 'GET', path: target.path, token: admin });
      const summary =
        'counters' in first ? `finished ${first.counters.supportFinished}` : `count ${first.count as number}`;
      console.log(`  ${target.what} (${summary}), ${opts.concurrency} clients, ${opts.seconds} s`);
      const r = await closedLoopGets(
        server,
        { clients: opts.concurrency, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds },
        () => ({ path: target.path, token: admin }),
      );
      results.push({
        what: `${target.what}, ${summary}`,
        answers,
        clients: opts.concurrency,
        ...r,
        p95TargetMs: opts.p95TargetMs,
      });
    }
  };
  try {
    const setup = await startServer({ dataDir, databaseUrl: db.url, env: { RATE_LIMITS: 'off', JOBS: 'off' } });
    const login = await json(setup.url, { method: 'POST', path: '/api/auth/login', body: ADMIN });
    const companyId = login.user.companyId as number;
    const userIds: number[] = [];
    for (let i = 0; i < opts.agents; i++) {
      const user = await json(
        setup.url,
        {
          method: 'POST',
          path: '/api/users',
          token: login.token as string,
          body: { name: `Dash agent ${i}`, email: `dash-agent-${i}@zelo.test`, password: 'Agent-Pass-1' },
        },
        201,
      );
      userIds.push(user.id as number);
    }
    console.log(`  generating ${opts.cycles} attendance cycles over ${opts.days} days`);
    const started = Date.now();
    generateCycles(db.url, companyId, userIds, opts);
    console.log(`  generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const backfillMs = rebuildRollup(db.url);
    const rollupRows = psql(db.url, 'select count(*) from dashboard_rollup');
    console.log(`  rollup backfilled in ${(backfillMs / 1000).toFixed(1)} s (${rollupRows} rollup rows)`);
    // a server started after the data (the first one's idle keep-alive sockets would be closed meanwhile)
    await setup.stop();
    for (const answers of ['kept', 'off'] as const) {
      const server = await startServer({
        dataDir,
        databaseUrl: db.url,
        env: { RATE_LIMITS: 'off', JOBS: 'off', ...(answers === 'off' ? { LIST_ANSWERS: 'off' } : {}) },
      });
      const admin = (await json(server.url, { method: 'POST', path: '/api/auth/login', body: ADMIN })).token as string;
      await measure(server, admin, answers);
      await server.stop();
    }
  } finally {
    // BENCH_DASHBOARD_KEEP=1 keeps the database to EXPLAIN the queries by hand
    if (process.env.BENCH_DASHBOARD_KEEP === '1') console.log(`  kept ${db.url}`);
    else db.drop();
    removeDir(dataDir);
  }

  return results;
};

export const dashboardTable = (results: TDashboardResult[]) =>
  [
    '| request (one company, 1 M cycles) | kept answers | clients | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms | p95 target ms | server CPU ms/request |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    ...results.map(
      (r) =>
        `| ${r.what} | ${r.answers} | ${r.clients} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ` +
        `${fmt(r.p99)} | ${fmt(r.max, 0)} | ${r.p95 <= r.p95TargetMs ? 'met' : '**missed**'} (≤ ${r.p95TargetMs}) | ${fmt(r.serverCpuMs, 2)} |`,
    ),
  ].join('\n');
