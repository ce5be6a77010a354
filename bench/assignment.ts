import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openPglite, openPostgres, runMigrations, type TDatabase } from '../apps/server/src/db/client';
import { queryRows } from '../apps/server/src/db/statements';
import { ensureSuperUser } from '../apps/server/src/lib/seed';
import { createAssigner } from '../apps/server/src/modules/assignment/assigner';
import { createPgDatabase, fmt, machine, pacedLoop, removeDir, stats, tempDir } from './lib';
import { quietLine, takeBenchLock, waitForQuiet } from './quiet';

/**
 * Automatic assignment's decision time (issue 25 item 4; target p95 ≤ 10 ms at 50 new tickets/s), in one
 * process, on PostgreSQL and PGlite. One company: two auto-assign queues, `agents` online agents (half in each,
 * one in both), each already holding open tickets, and a history of closed ones. New tickets arrive as an
 * open loop at `rate` a second, each one written as the pipeline leaves a ticket waiting in its queue (pending,
 * queue set, its cycle queued) and followed by the kick the pipeline gives; its decision time runs from the kick
 * to the commit of the round that gave it to an agent (the round's wait for the company lock and for a round
 * already running included). The round's own time (lock, reads, decisions, writes) is reported beside it.
 *
 *   node --import tsx assignment.ts [--db postgres|pglite] [--rate 50] [--seconds 20] [--agents 20]
 */

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    agents: { type: 'string', default: '20' },
    history: { type: 'string', default: '50000' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const AGENTS = Number(values.agents);
const HISTORY = Number(values.history);

const open = async (): Promise<{ database: TDatabase; cleanup: () => void }> => {
  if (values.db === 'pglite') {
    const dir = tempDir('assign-db');
    const database = await openPglite({ dataDir: dir });
    return { database, cleanup: () => removeDir(dir) };
  }
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const pg = createPgDatabase(base, `zelo_bench_assign_${Date.now().toString(36)}`);
  const database = await openPostgres(pg.url, 10);
  return { database, cleanup: pg.drop };
};

const main = async () => {
  await takeBenchLock();
  console.log(quietLine(await waitForQuiet(Number(process.env.BENCH_MAX_WAIT ?? 600))));
  const dataDir = tempDir('assign');
  const logger = pino({ level: 'silent' });
  const { database, cleanup } = await open();
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    queryRows<T>(database.db, text, params, { unnamed: true });
  try {
    await runMigrations(database);
    await ensureSuperUser(database.db, { email: 'bench-super@zelo.test', password: 'Bench-Pass-1', log: logger });
    const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMITS: 'off', JOBS: 'off', LOG_LEVEL: 'silent' });
    const { app, ctx } = await buildApp({ config, database, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });

    // the company, its connection, two auto-assign queues and the agents (online, as their sockets make them)
    const [plan] = await sql<{ id: number }>("insert into plans (name) values ('Bench assign') returning id");
    const [company] = await sql<{ id: number }>(
      "insert into companies (name, plan_id) values ('Bench assign', $1) returning id",
      [plan!.id],
    );
    const companyId = company!.id;
    const [conn] = await sql<{ id: number }>(
      "insert into whatsapps (company_id, name, status) values ($1, 'Bench', 'CONNECTED') returning id",
      [companyId],
    );
    const queues = await sql<{ id: number }>(
      `insert into queues (company_id, name, color, auto_assign, auto_assign_max)
       values ($1, 'A', '#111', true, 100), ($1, 'B', '#222', true, 100) returning id`,
      [companyId],
    );
    const agents: number[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const [u] = await sql<{ id: number }>(
        `insert into users (company_id, name, email, password_hash, online) values ($1, $2, $3, 'x', true) returning id`,
        [companyId, `Agent ${i}`, `bench-assign-${i}-${Date.now()}@zelo.test`],
      );
      agents.push(u!.id);
      const own = i < AGENTS / 2 ? [queues[0]!.id] : [queues[1]!.id];
      if (i === Math.floor(AGENTS / 2)) own.push(queues[0]!.id);
      for (const q of own) {
        await sql('insert into user_queues (company_id, user_id, queue_id) values ($1, $2, $3)', [companyId, u!.id, q]);
      }
    }
    // history: closed tickets, and 5 open tickets per agent
    await sql(
      `insert into contacts (company_id, name, number)
       select $1, 'C' || g, '55' || (11000000000 + g) from generate_series(1, $2) g`,
      [companyId, HISTORY + 20_000],
    );
    await sql(
      `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, closed_at)
       select $1, c.id, $2, $3, ($4::int[])[1 + (c.id % array_length($4::int[], 1))], 'closed', now() - interval '1 day'
       from contacts c where c.company_id = $1 order by c.id limit $5`,
      [companyId, conn!.id, queues[0]!.id, agents, HISTORY],
    );
    await sql(
      `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status)
       select $1, c.id, $2, $3, ($4::int[])[1 + (c.rn % array_length($4::int[], 1))], 'open'
       from (select id, row_number() over (order by id) as rn from contacts where company_id = $1
             order by id offset $5 limit $6) c`,
      [companyId, conn!.id, queues[0]!.id, agents, HISTORY, AGENTS * 5],
    );
    await sql('analyze');
    const free = await sql<{ id: number }>(
      `select c.id from contacts c where c.company_id = $1
         and not exists (select 1 from tickets t where t.contact_id = c.id) order by c.id`,
      [companyId],
    );

    const kickedAt = new Map<number, number>();
    const counted = new Set<number>();
    const decisions: number[] = [];
    const rounds: number[] = [];
    const assigner = createAssigner(ctx, {
      sweepMs: 3_600_000,
      onRound: ({ assigned, ms }) => {
        if (assigned.length > 0) rounds.push(ms);
        const done = performance.now();
        for (const a of assigned) {
          const start = kickedAt.get(a.ticketId);
          if (start !== undefined && counted.has(a.ticketId)) decisions.push(done - start);
        }
      },
    });
    let next = 0;
    const load = [loadavg()[0]!];
    const seconds = await pacedLoop({
      rate: RATE,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      fire: async (isCounted) => {
        const contactId = free[next++]!.id;
        const queueId = queues[next % 2]!.id;
        const [t] = await sql<{ id: number }>(
          `with t as (insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status)
                      values ($1, $2, $3, $4, 'pending') returning id)
           , c as (insert into ticket_trackings (company_id, ticket_id, whatsapp_id, queue_id, queued_at)
                   select $1, t.id, $3, $4, now() from t)
           select id from t`,
          [companyId, contactId, conn!.id, queueId],
        );
        kickedAt.set(t!.id, performance.now());
        if (isCounted) counted.add(t!.id);
        assigner.kick(companyId);
      },
    });
    await assigner.settled();
    load.push(loadavg()[0]!);
    const waiting = await sql<{ n: number }>(
      "select count(*)::int as n from tickets where company_id = $1 and status = 'pending'",
      [companyId],
    );
    const d = stats(decisions);
    const r = stats(rounds);
    console.log(`\n${machine()}`);
    console.log(`database ${database.kind}, ${RATE}/s for ${SECONDS} s (+${WARMUP} s warm-up), ${AGENTS} agents`);
    console.log(`load average (1 min) at start ${load[0]!.toFixed(2)}, at end ${load[1]!.toFixed(2)}`);
    console.log('| tickets counted | decision p50 | p95 | p99 | max | round p50 | round p95 | left waiting |');
    console.log('|---|---|---|---|---|---|---|---|');
    console.log(
      `| ${decisions.length} (${(decisions.length / seconds).toFixed(1)}/s) | ${fmt(d.p50)} ms | ${fmt(d.p95)} ms | ${fmt(d.p99)} ms | ${fmt(d.max)} ms | ${fmt(r.p50)} ms | ${fmt(r.p95)} ms | ${waiting[0]!.n} |`,
    );
    await assigner.stop();
    await app.close();
  } finally {
    await database.close().catch(() => undefined);
    cleanup();
    removeDir(dataDir);
  }
};

await main();
