import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ADMIN, closedLoopGets, createPgDatabase, fmt, json, removeDir, startServer, tempDir } from './lib';

/**
 * The kanban board's first load (`GET /api/ticket/kanban?perLane=50`, every lane's first 50 cards with its
 * count), PostgreSQL, 20 closed-loop clients, no writes. One company with `tickets` open and pending tickets
 * (default 5,000) in 6 lanes: "open" (no lane tag) and 5 kanban tags, 1/6 each, spread over 3 queues and 4
 * agents; beside them 20,000 closed tickets of the same lanes (a board never shows them, their tags stay)
 * and a non-kanban tag on every third ticket. Rows: the admin's board (showAll, as the web app and the
 * ancestor ask), an agent's (their queues), then both again with `LIST_ANSWERS=off` (the statement every time).
 */

export const KANBAN_DEFAULTS = {
  tickets: 5000,
  closed: 20000,
  lanes: 5,
  p95TargetMs: 50,
  /** the whole answer (no paging parameters: every open and pending card, the ancestor's call) */
  wholeP95TargetMs: 200,
  /** which servers: kept answers (the default), `LIST_ANSWERS=off`, or both */
  answers: 'both' as 'kept' | 'off' | 'both',
};

export type TKanbanResult = {
  what: string;
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
  /** the machine's time over the measured seconds (lib.ts cpuShares) and this process's loop delay p99, ms */
  machine: string;
  benchLoopP99: number;
  p95TargetMs: number;
};

const psql = (url: string, sql: string) =>
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql], { encoding: 'utf8' }).trim();

/** tickets, lanes and closed history written in SQL (the API would take minutes) */
const generate = (
  url: string,
  companyId: number,
  laneIds: number[],
  plainTagId: number,
  queueIds: number[],
  userIds: number[],
  opts: typeof KANBAN_DEFAULTS,
) => {
  const lanes = `array[${laneIds.join(',')}]::int[]`;
  const queues = `array[${queueIds.join(',')}]::int[]`;
  const users = `array[${userIds.join(',')}]::int[]`;
  const total = opts.tickets + opts.closed;
  psql(
    url,
    `insert into contacts (company_id, name, number)
       select ${companyId}, 'Kanban customer ' || g, '5511' || lpad(g::text, 9, '0') from generate_series(1, ${total}) g;
     insert into tickets (company_id, contact_id, status, queue_id, user_id, last_message, updated_at, created_at)
       select ${companyId}, c.id,
         case when n > ${opts.closed} then (case when n % 3 = 0 then 'pending' else 'open' end) else 'closed' end,
         (${queues})[1 + n % ${queueIds.length}],
         case when n % 3 = 0 then null else (${users})[1 + n % ${userIds.length}] end,
         'last message of ticket ' || n, now() - make_interval(secs => ${total} - n), now() - interval '1 day'
       from (select id, row_number() over (order by id) as n from contacts where company_id = ${companyId}) c;
     insert into ticket_tags (company_id, ticket_id, tag_id)
       select ${companyId}, t.id, (${lanes})[abs(hashint4(t.id)) % ${laneIds.length + 1}]
       from tickets t where t.company_id = ${companyId} and abs(hashint4(t.id)) % ${laneIds.length + 1} <> 0;
     insert into ticket_tags (company_id, ticket_id, tag_id)
       select ${companyId}, t.id, ${plainTagId} from tickets t where t.company_id = ${companyId} and t.id % 3 = 0;
`,
  );
  // as autovacuum leaves a table in use: statistics and the visibility map (index-only scans) up to date
  for (const table of ['contacts', 'tickets', 'ticket_tags', 'tags']) psql(url, `vacuum analyze ${table}`);
};

export const kanbanPostgres = async (
  opts: typeof KANBAN_DEFAULTS & { concurrency: number; seconds: number; warmupSeconds: number },
  baseUrl: string,
): Promise<TKanbanResult[]> => {
  const db = createPgDatabase(baseUrl, `zelo_bench_kanban_${randomBytes(4).toString('hex')}`);
  const dataDir = tempDir('kanban');
  const results: TKanbanResult[] = [];
  try {
    let server = await startServer({ dataDir, databaseUrl: db.url, env: { RATE_LIMITS: 'off', JOBS: 'off' } });
    const login = await json(server.url, { method: 'POST', path: '/api/auth/login', body: ADMIN });
    const admin = login.token as string;
    const companyId = login.user.companyId as number;
    const post = (path: string, body: unknown) =>
      json(server.url, { method: 'POST', path, body, token: admin }, 201) as Promise<{ id: number }>;
    const laneIds: number[] = [];
    for (let i = 0; i < opts.lanes; i++)
      laneIds.push((await post('/api/tags', { name: `Lane ${i + 1}`, kanban: 1 })).id);
    const plain = await post('/api/tags', { name: 'Plain tag', kanban: 0 });
    const queueIds: number[] = [];
    for (let i = 0; i < 3; i++)
      queueIds.push((await post('/api/queue', { name: `Kanban queue ${i + 1}`, color: `#00${i}0AA` })).id);
    const agents: { id: number; email: string; queueIds: number[] }[] = [];
    for (let i = 0; i < 4; i++) {
      const email = `kanban-agent-${i}@zelo.test`;
      const mine = [queueIds[i % 3], queueIds[(i + 1) % 3]].slice(0, 1 + (i % 2));
      const user = await post('/api/users', { name: `Agent ${i}`, email, password: 'Agent-Pass-1', queueIds: mine });
      agents.push({ id: user.id, email, queueIds: mine });
    }
    console.log(`  generating ${opts.tickets} open/pending and ${opts.closed} closed tickets`);
    generate(
      db.url,
      companyId,
      laneIds,
      plain.id,
      queueIds,
      agents.map((a) => a.id),
      opts,
    );

    const run = async (
      what: string,
      answers: 'kept' | 'off',
      pick: () => { path: string; token: string; headers?: Record<string, string> }[],
      target = opts.p95TargetMs,
    ) => {
      const targets = pick();
      const first = await json(server.url, { method: 'GET', path: targets[0].path, token: targets[0].token });
      const counts = first.lanes
        ? (first.lanes as { count: number; tickets: unknown[] }[]).map((l) => `${l.count}`).join('/')
        : `${first.count} cards`;
      console.log(
        `  ${what} (lane counts ${counts}), answers ${answers}, ${opts.concurrency} clients, ${opts.seconds} s`,
      );
      const r = await closedLoopGets(
        server,
        { clients: opts.concurrency, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds },
        (client) => targets[client % targets.length]!,
      );
      results.push({
        what: `${what}, lanes ${counts}`,
        answers,
        clients: opts.concurrency,
        ...r,
        p95TargetMs: target,
      });
    };
    const agentTokens = async () =>
      Promise.all(
        agents.map(async (a) => ({
          token: (
            await json(server.url, {
              method: 'POST',
              path: '/api/auth/login',
              body: { email: a.email, password: 'Agent-Pass-1' },
            })
          ).token as string,
          queueIds: a.queueIds,
        })),
      );
    const rows = async (answers: 'kept' | 'off', adminToken: string) => {
      await run('admin: board, showAll, perLane=50', answers, () => [
        { path: '/api/ticket/kanban?perLane=50&showAll=true&queueIds=%5B%5D', token: adminToken },
      ]);
      const tokens = await agentTokens();
      await run('agents: board, own queues, perLane=50', answers, () =>
        tokens.map((a) => ({
          path: `/api/ticket/kanban?perLane=50&showAll=false&queueIds=${encodeURIComponent(JSON.stringify(a.queueIds))}`,
          token: a.token,
        })),
      );
      // the ancestor's call: every open and pending card at once
      await run(
        'admin: whole answer (no paging), showAll',
        answers,
        () => [{ path: '/api/ticket/kanban?showAll=true&queueIds=%5B%5D', token: adminToken }],
        opts.wholeP95TargetMs,
      );
      // as a browser asks (the ancestor's client is one): the kept answer compressed once (http/compress.ts); the
      // load generator reads the compressed bytes without unzipping them
      await run(
        'admin: whole answer (no paging), showAll, Accept-Encoding: gzip, deflate, br',
        answers,
        () => [
          {
            path: '/api/ticket/kanban?showAll=true&queueIds=%5B%5D',
            token: adminToken,
            headers: { 'accept-encoding': 'gzip, deflate, br' },
          },
        ],
        opts.wholeP95TargetMs,
      );
      await run(
        'agents: whole answer (no paging), own queues',
        answers,
        () =>
          tokens.map((a) => ({
            path: `/api/ticket/kanban?showAll=false&queueIds=${encodeURIComponent(JSON.stringify(a.queueIds))}`,
            token: a.token,
          })),
        opts.wholeP95TargetMs,
      );
    };
    if (opts.answers !== 'off') await rows('kept', admin);
    await server.stop();
    if (opts.answers === 'kept') return results;
    server = await startServer({
      dataDir,
      databaseUrl: db.url,
      env: { RATE_LIMITS: 'off', JOBS: 'off', LIST_ANSWERS: 'off' },
    });
    const again = await json(server.url, { method: 'POST', path: '/api/auth/login', body: ADMIN });
    await rows('off', again.token as string);
    await server.stop();
  } finally {
    // BENCH_KANBAN_KEEP=1 keeps the database to EXPLAIN the board by hand
    if (process.env.BENCH_KANBAN_KEEP === '1') console.log(`  kept ${db.url}`);
    else db.drop();
    removeDir(dataDir);
  }

  return results;
};

export const kanbanTable = (results: TKanbanResult[]) =>
  [
    "| GET /api/ticket/kanban | kept answers | clients | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms | p95 target ms | server CPU ms/request | machine's time | bench loop p99 ms |",
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.what} | ${r.answers} | ${r.clients} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ` +
        `${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.max, 0)} | ${r.p95 <= r.p95TargetMs ? 'met' : '**missed**'} (≤ ${r.p95TargetMs}) | ${fmt(r.serverCpuMs, 2)} | ` +
        `${r.machine} | ${fmt(r.benchLoopP99)} |`,
    ),
  ].join('\n');
