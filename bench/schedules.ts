import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ADMIN, createPgDatabase, fmt, json, removeDir, startServer, stats, tempDir } from './lib';

/**
 * Scheduled messages (issue 12 item 1), PostgreSQL, one server with its jobs on (the schedule sender) and a
 * paired sandbox connection. `single`: one schedule made through the API `lead` seconds ahead (the timer armed by
 * the create), `runs` times: how late its `sentAt` is after its `sendAt`. `burst`: `burst` schedules (default
 * 1,000) of as many contacts written in SQL, all due at the same second a few seconds ahead (the sender learns of
 * them by its 1 s poll, as on a node that did not take the creates): the time from that second until the last
 * one is ENVIADA, and that every one was sent once (the sandbox outbox holds one message per contact).
 */

export const SCHEDULES_DEFAULTS = { runs: 5, lead: 3, burst: 1000, singleTargetMs: 2000, burstTargetMs: 10_000 };

export type TSchedulesResult = {
  what: string;
  count: number;
  /** sentAt − sendAt per schedule (single), or until the last sentAt (burst) */
  p50: number;
  p95: number;
  max: number;
  sentOnce: boolean;
  targetMs: number;
};

const psql = (url: string, sql: string) =>
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql], { encoding: 'utf8' }).trim();

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export const schedulesPostgres = async (
  opts: typeof SCHEDULES_DEFAULTS,
  baseUrl: string,
): Promise<TSchedulesResult[]> => {
  const db = createPgDatabase(baseUrl, `zelo_bench_schedules_${randomBytes(4).toString('hex')}`);
  const dataDir = tempDir('schedules');
  const server = await startServer({ dataDir, databaseUrl: db.url, env: { RATE_LIMITS: 'off', JOBS: 'on' } });
  try {
    const login = await json(server.url, { method: 'POST', path: '/api/auth/login', body: ADMIN });
    const token = login.token as string;
    const companyId = login.user.companyId as number;
    const connection = await json(
      server.url,
      { method: 'POST', path: '/api/whatsapp', token, body: { name: 'Bench schedules', provider: 'sandbox' } },
      201,
    );
    const connectionId = connection.id as number;
    for (let i = 0; ; i++) {
      const state = await json(server.url, { method: 'GET', path: `/api/whatsapp/${connectionId}`, token });
      if (state.status === 'qrcode') break;
      if (i > 100) throw new Error('no QR code');
      await sleep(100);
    }
    await json(server.url, { method: 'POST', path: `/api/sandbox/${connectionId}/scan`, token, body: {} });
    for (let i = 0; ; i++) {
      const state = await json(server.url, { method: 'GET', path: `/api/whatsapp/${connectionId}`, token });
      if (state.status === 'CONNECTED') break;
      if (i > 100) throw new Error('not connected');
      await sleep(100);
    }
    const total = opts.burst + opts.runs;
    psql(
      db.url,
      `insert into contacts (company_id, name, number)
       select ${companyId}, 'Bench ' || g, (5511900000000 + g)::text from generate_series(1, ${total}) g`,
    );
    const contactIds = psql(db.url, `select id from contacts where company_id = ${companyId} order by id`)
      .split('\n')
      .map(Number);

    // one at a time, made through the API
    const lateness: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      const sendAt = new Date(Date.now() + opts.lead * 1000);
      const created = await json(server.url, {
        method: 'POST',
        path: '/api/schedules',
        token,
        body: { body: `Bench single ${i}`, contactId: contactIds[opts.burst + i], sendAt: sendAt.toISOString() },
      });
      for (;;) {
        const row = await json(server.url, { method: 'GET', path: `/api/schedules/${created.id}`, token });
        if (row.status === 'ENVIADA') {
          lateness.push(new Date(row.sentAt).getTime() - sendAt.getTime());
          break;
        }
        if (row.status === 'ERRO') throw new Error(`single schedule failed: ${row.errorMessage}`);
        if (Date.now() - sendAt.getTime() > 30_000) throw new Error('single schedule not sent');
        await sleep(50);
      }
    }
    const single = stats(lateness);

    // the burst, written in SQL, all due at the same second
    const due = new Date(Math.ceil((Date.now() + 6000) / 1000) * 1000);
    psql(
      db.url,
      `insert into schedules (company_id, body, send_at, contact_id, whatsapp_id, status)
       select ${companyId}, 'Bench burst ' || c.id, '${due.toISOString()}', c.id, ${connectionId}, 'PENDENTE'
       from (select id from contacts where company_id = ${companyId} order by id limit ${opts.burst}) c`,
    );
    const deadline = due.getTime() + 60_000;
    let done = 0;
    while (Date.now() < deadline) {
      done = Number(
        psql(db.url, `select count(*) from schedules where body like 'Bench burst %' and status = 'ENVIADA'`),
      );
      if (done === opts.burst) break;
      await sleep(200);
    }
    const burstLate = psql(
      db.url,
      `select extract(epoch from sent_at - send_at) * 1000 from schedules where body like 'Bench burst %' and sent_at is not null`,
    )
      .split('\n')
      .filter(Boolean)
      .map(Number);
    const burst = stats(burstLate);
    const outbox = psql(
      db.url,
      `select count(*), count(distinct client_id) from messages where client_id like 'schedule:%'`,
    ).split('|');
    const sentOnce = Number(outbox[0]) === total && Number(outbox[1]) === total && done === opts.burst;

    return [
      {
        what: `one schedule ${opts.lead} s ahead (API create), ${opts.runs} runs`,
        count: lateness.length,
        p50: single.p50,
        p95: single.p95,
        max: single.max,
        sentOnce: lateness.length === opts.runs,
        targetMs: opts.singleTargetMs,
      },
      {
        what: `${opts.burst} schedules due at the same second (SQL insert, found by the poll)`,
        count: done,
        p50: burst.p50,
        p95: burst.p95,
        max: burst.max,
        sentOnce,
        targetMs: opts.burstTargetMs,
      },
    ];
  } finally {
    await server.stop();
    removeDir(dataDir);
    db.drop();
  }
};

export const schedulesTable = (results: TSchedulesResult[]) =>
  [
    '| what | sent | late p50 ms | p95 ms | max ms | target | each once |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.what} | ${r.count} | ${fmt(r.p50, 0)} | ${fmt(r.p95, 0)} | ${fmt(r.max, 0)} | ≤ ${r.targetMs} ms | ${r.sentOnce ? 'yes' : 'NO'} |`,
    ),
  ].join('\n');
