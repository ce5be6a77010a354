import { cpuUsage } from 'node:process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openPostgres, runMigrations } from '../apps/server/src/db/client';
import { queryRows } from '../apps/server/src/db/statements';
import { recordAgentReply } from '../apps/server/src/modules/reports/metrics.repo';
import { createPgDatabase, fmt, median } from './lib';
import { quietLine, takeBenchLock, waitForQuiet } from './quiet';

/**
 * What recording the attendance metrics adds to an agent's send (issue 25: ≤ 5 % on the send path), measured
 * directly: the one statement the send path gained (`recordAgentReply`, reports/metrics.repo.ts), run as the
 * server runs it (a named prepared statement on the server's pool) against a cycle that already has its first
 * reply (every send but a cycle's first: the statement changes nothing) and against one that has none. The
 * server process's CPU and the wall time per statement are set against the send's own server CPU measured by
 * bench/before-after.ts (`--send-cpu`, ms). Inbound gained no statement (a reopening marks its cycle once).
 *
 *   node --import tsx bench/recording-cost.ts [--send-cpu 9.1] [--n 20000]
 */

const { values } = parseArgs({
  options: { 'send-cpu': { type: 'string', default: '9.1' }, n: { type: 'string', default: '20000' } },
});
const N = Number(values.n);
const SEND_CPU_MS = Number(values['send-cpu']);

await takeBenchLock();
const quiet = await waitForQuiet(Number(process.env.BENCH_MAX_WAIT ?? 600));
console.log(quietLine(quiet));
const pg = createPgDatabase(
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  `zelo_bench_rec_${Date.now().toString(36)}`,
);
const database = await openPostgres(pg.url, 10);
try {
  await runMigrations(database);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    queryRows<T>(database.db, text, params, { unnamed: true });
  const [plan] = await sql<{ id: number }>("insert into plans (name) values ('Bench rec') returning id");
  const [company] = await sql<{ id: number }>(
    "insert into companies (name, plan_id) values ('Bench rec', $1) returning id",
    [plan!.id],
  );
  const companyId = company!.id;
  // 10,000 tickets with one cycle each, as a busy company has
  await sql(
    `insert into contacts (company_id, name, number) select $1, 'c' || g, '5511' || lpad(g::text, 9, '0') from generate_series(1, 10000) g`,
    [companyId],
  );
  await sql(
    `insert into tickets (company_id, contact_id, status) select $1, id, 'open' from contacts where company_id = $1`,
    [companyId],
  );
  await sql(
    `insert into ticket_trackings (company_id, ticket_id, created_at, started_at, first_reply_at)
     select $1, id, now(), now(), case when id % 2 = 0 then now() end from tickets where company_id = $1`,
    [companyId],
  );
  await sql('analyze ticket_trackings');
  const ids = await sql<{ id: number; answered: boolean }>(
    `select t.id, tr.first_reply_at is not null as answered from tickets t join ticket_trackings tr on tr.ticket_id = t.id
     where t.company_id = $1 order by t.id`,
    [companyId],
  );
  const answered = ids.filter((t) => t.answered).map((t) => t.id);
  const fresh = ids.filter((t) => !t.answered).map((t) => t.id);

  const run = async (tickets: number[], n: number) => {
    const c0 = cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++)
      await recordAgentReply(database.db, companyId, tickets[i % tickets.length]!, null, new Date());
    const c = cpuUsage(c0);
    return { cpuMs: (c.user + c.system) / 1000 / n, wallMs: (performance.now() - t0) / n };
  };
  await run(answered, 2000);
  const rounds = Array.from({ length: 5 }, () => 0);
  const noop: { cpuMs: number; wallMs: number }[] = [];
  for (const _ of rounds) noop.push(await run(answered, N / 5));
  // a cycle's first reply (each fresh cycle once)
  const first = await run(fresh, fresh.length);
  const noopCpu = median(noop.map((r) => r.cpuMs));
  const noopWall = median(noop.map((r) => r.wallMs));
  console.log(
    `\nrecordAgentReply on an answered cycle (no change; ${N} calls): ${fmt(noopCpu * 1000, 1)} µs server CPU, ${fmt(noopWall * 1000, 1)} µs wall`,
  );
  console.log(
    `recordAgentReply on a cycle's first reply (${fresh.length} calls): ${fmt(first.cpuMs * 1000, 1)} µs server CPU, ${fmt(first.wallMs * 1000, 1)} µs wall`,
  );
  console.log(
    `against a send's ${SEND_CPU_MS} ms server CPU: ${fmt((noopCpu / SEND_CPU_MS) * 100, 2)} % (first reply ${fmt((first.cpuMs / SEND_CPU_MS) * 100, 2)} %)`,
  );
} finally {
  await database.close();
  pg.drop();
}
