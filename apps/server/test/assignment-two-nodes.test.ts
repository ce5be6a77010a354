import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, runMigrations } from '../src/db/client';

/**
 * Automatic assignment exactly once across nodes: two processes with their own connection pools on one
 * PostgreSQL database run the assigner's rounds for the same company at the same moment, one ticket per
 * round so that they interleave as much as they can. No ticket is given twice, none is skipped (the ones
 * left waiting are always the newest), no agent goes past the cap, and the places are shared fairly, even
 * with agents serving two queues at once (the reason the lock is the company's, not the queue's).
 */
const BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WORKER = resolve(import.meta.dirname, 'assignment-worker.ts');
const dbName = `zelo_assign_${randomBytes(4).toString('hex')}`;

let admin: pg.Client;
let db: pg.Client;
let url: string;

type TLine = { ticketId: number; userId: number; queueId: number } | 'idle' | 'ready';
type TWorker = { proc: ChildProcess; lines: TLine[]; next: (what: 'idle' | 'ready') => Promise<void> };

const startWorker = (companyId: number): Promise<TWorker> => {
  const proc = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: { ...process.env, DATABASE_URL: url, COMPANY_ID: String(companyId), BATCH: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: TLine[] = [];
  let errors = '';
  proc.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  let seen = 0;
  const waiters: (() => void)[] = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    lines.push(JSON.parse(line) as TLine);
    for (const w of waiters.splice(0)) w();
  });
  /** resolves at the next `what` line after the last one already waited for */
  const next = (what: 'idle' | 'ready') =>
    new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`worker: no ${what}\n${errors}`)), 60_000);
      const check = () => {
        const at = lines.findIndex((l, i) => i >= seen && l === what);
        if (at >= 0) {
          seen = at + 1;
          clearTimeout(timer);
          ok();
        } else waiters.push(check);
      };
      check();
    });
  const worker = { proc, lines, next };

  return next('ready').then(() => worker);
};

const q = async <T = any>(text: string, values: unknown[] = []) => (await db.query(text, values)).rows as T[];

/** a company with `agents` online agents, two auto-assign queues (agents split, some in both) and `tickets` waiting */
const seed = async (opts: { agents: number; max: number; tickets: number }) => {
  const [{ id: planId }] = await q('insert into plans (name) values ($1) returning id', [
    `Plan ${randomBytes(3).toString('hex')}`,
  ]);
  const [{ id: companyId }] = await q('insert into companies (name, plan_id) values ($1, $2) returning id', [
    `Company ${randomBytes(3).toString('hex')}`,
    planId,
  ]);
  const [{ id: connectionId }] = await q(
    `insert into whatsapps (company_id, name, status) values ($1, 'Conn', 'CONNECTED') returning id`,
    [companyId],
  );
  const queues = await q<{ id: number }>(
    `insert into queues (company_id, name, color, auto_assign, auto_assign_max)
     values ($1, 'Q1', '#111', true, $2), ($1, 'Q2', '#222', true, $2) returning id`,
    [companyId, opts.max],
  );
  const agents: number[] = [];
  for (let i = 0; i < opts.agents; i++) {
    const [{ id }] = await q(
      `insert into users (company_id, name, email, password_hash, online) values ($1, $2, $3, 'x', true) returning id`,
      [companyId, `Agent ${i}`, `agent-${i}-${randomBytes(4).toString('hex')}@zelo.test`],
    );
    agents.push(id);
    // the first half serve Q1, the second half Q2, the middle one both
    const [q1, q2] = [queues[0]!.id, queues[1]!.id];
    const own = i < opts.agents / 2 ? [q1] : [q2];
    if (i === Math.floor(opts.agents / 2)) own.push(own[0] === q1 ? q2 : q1);
    for (const queueId of own) {
      await q('insert into user_queues (company_id, user_id, queue_id) values ($1, $2, $3)', [companyId, id, queueId]);
    }
  }
  // tickets alternate between the queues, one second apart in the order they waited
  const tickets: number[] = [];
  for (let i = 0; i < opts.tickets; i++) {
    const at = new Date(Date.now() - (opts.tickets - i) * 1000);
    const [{ id: contactId }] = await q(
      'insert into contacts (company_id, name, number) values ($1, $2, $3) returning id',
      [companyId, `C${i}`, `5511${String(10_000_000 + i)}`],
    );
    const [{ id }] = await q(
      `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status, created_at)
       values ($1, $2, $3, $4, 'pending', $5) returning id`,
      [companyId, contactId, connectionId, queues[i % 2]!.id, at],
    );
    await q(
      'insert into ticket_trackings (company_id, ticket_id, whatsapp_id, queue_id, queued_at) values ($1, $2, $3, $4, $5)',
      [companyId, id, connectionId, queues[i % 2]!.id, at],
    );
    tickets.push(id);
  }

  return { companyId, agents, tickets };
};

const workers: TWorker[] = [];

beforeAll(async () => {
  admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const target = new URL(BASE_URL);
  target.pathname = `/${dbName}`;
  url = target.toString();
  const database = await openPostgres(url, 2);
  await runMigrations(database);
  await database.close();
  db = new pg.Client({ connectionString: url });
  await db.connect();
}, 120_000);

afterAll(async () => {
  for (const w of workers) {
    w.proc.stdin!.write('exit\n');
    await new Promise((done) => (w.proc.exitCode === null ? w.proc.once('exit', done) : done(null)));
  }
  await db?.end();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
});

/** both workers told to go at the same moment; resolves when both found nothing more to assign */
const goBoth = async (pair: TWorker[]) => {
  const idle = pair.map((w) => w.next('idle'));
  for (const w of pair) w.proc.stdin!.write('go\n');
  await Promise.all(idle);
};

const assignments = (w: TWorker) => w.lines.filter((l): l is Exclude<TLine, string> => typeof l === 'object');

/**
 * What must hold whenever both processes are idle: never past the cap; per queue, every ticket given is older
 * than every ticket still waiting there (nothing skipped); a ticket waits only while its queue has no agent
 * with room. Answers the agents' loads.
 */
const checkInvariants = async (companyId: number, max: number) => {
  const loads = await q<{ id: number; n: number }>(
    `select u.id, count(t.id)::int as n from users u
     left join tickets t on t.user_id = u.id and t.status = 'open'
     where u.company_id = $1 group by u.id order by u.id`,
    [companyId],
  );
  for (const l of loads) expect(l.n, `agent ${l.id} past the cap`).toBeLessThanOrEqual(max);
  const skipped = await q(
    `select w.id from tickets w where w.company_id = $1 and w.status = 'pending'
       and exists (select 1 from tickets g where g.company_id = $1 and g.queue_id = w.queue_id
                     and g.status = 'open' and g.created_at > w.created_at)`,
    [companyId],
  );
  expect(skipped, 'a newer ticket of the queue was given before an older one').toEqual([]);
  const waitingWithRoom = await q(
    `select w.id from tickets w where w.company_id = $1 and w.status = 'pending'
       and exists (select 1 from user_queues uq where uq.queue_id = w.queue_id
                     and (select count(*) from tickets o where o.user_id = uq.user_id and o.status = 'open') < $2)`,
    [companyId, max],
  );
  expect(waitingWithRoom, 'a ticket waits while its queue has an agent with room').toEqual([]);

  return loads.map((l) => l.n);
};

describe('two processes assigning the same company at once', () => {
  it('give every ticket once, in waiting order, never past the cap, evenly', async () => {
    const { companyId, tickets } = await seed({ agents: 5, max: 3, tickets: 60 });
    const pair = await Promise.all([startWorker(companyId), startWorker(companyId)]);
    workers.push(...pair);
    const given = new Map<number, number>();
    for (let phase = 1; given.size < tickets.length; phase++) {
      expect(phase, 'every ticket given within 8 rounds of closing').toBeLessThanOrEqual(8);
      const before = pair.map((w) => assignments(w).length);
      await goBoth(pair);
      const fresh = pair.flatMap((w, i) => assignments(w).slice(before[i]));
      for (const a of fresh) {
        expect(given.has(a.ticketId), `ticket ${a.ticketId} given twice`).toBe(false);
        given.set(a.ticketId, a.userId);
      }
      // the database agrees with what the processes said they committed
      const open = await q<{ id: number; user_id: number }>(
        "select id, user_id from tickets where company_id = $1 and status = 'open' order by id",
        [companyId],
      );
      expect(open.map((t) => [t.id, t.user_id])).toEqual(
        fresh.map((a) => [a.ticketId, a.userId]).sort((x, y) => x[0]! - y[0]!),
      );
      const loads = await checkInvariants(companyId, 3);
      // while tickets of both queues wait, every one of the 5 agents is full (15 places, evenly)
      if (tickets.length - given.size >= 15) expect(loads).toEqual([3, 3, 3, 3, 3]);
      // the agents finish: every place is free for the next round
      await q("update tickets set status = 'closed', closed_at = now() where company_id = $1 and status = 'open'", [
        companyId,
      ]);
    }
    expect([...given.keys()].sort((x, y) => x - y)).toEqual(tickets);
  }, 120_000);

  it('share a large wave between them, each ticket once and the cap kept', async () => {
    const { companyId } = await seed({ agents: 10, max: 15, tickets: 200 });
    const pair = await Promise.all([startWorker(companyId), startWorker(companyId)]);
    workers.push(...pair);
    await goBoth(pair);
    const all = pair.flatMap(assignments);
    // both processes really assigned, interleaved on the lock
    for (const w of pair) expect(assignments(w).length).toBeGreaterThan(0);
    expect(all.length).toBe(150);
    expect(new Set(all.map((a) => a.ticketId)).size).toBe(150);
    expect(await checkInvariants(companyId, 15)).toEqual(Array(10).fill(15));
  }, 120_000);
});
