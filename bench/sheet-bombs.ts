import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { bombXlsx } from '../apps/server/test/sheet-bombs';
import { closedLoopGets, createPgDatabase, fmt, json, removeDir, startServer, type TServer, tempDir } from './lib';

/**
 * Spreadsheet bombs (issue 20 item 2): three companies upload a bomb to `POST /api/contact-lists/:id/upload`
 * at once, again and again, while a fourth company's ticket list (`GET /api/tickets?status=open&showAll=true`)
 * is asked in a closed loop; its p95 is compared with the same loop on the quiet server, and the server's
 * resident memory (VmRSS from /proc) is sampled every 50 ms. Bombs: `declared` (the file's zip directory
 * declares ~14× its size unpacked: refused from the directory), `lying` (the same file, its directory
 * declaring 1 KiB: stopped at the bytes really unpacked) and `rows` (a sheet just under the unpacked cap,
 * far over the row limit: read in a worker up to the limit). Targets: p95 ≤ 50 ms, memory ≤ +300 MB.
 *
 *   npm run bench -w bench -- --only sheets [--db pglite|postgres] [--sheet-mb 20] [--seconds 10]
 */

export const SHEET_DEFAULTS = { mb: 20, clients: 4, p95TargetMs: 50, rssTargetMb: 300 };

export type TSheetBench = {
  db: string;
  bomb: string;
  fileMb: number;
  unpackedMb: number;
  uploads: number;
  statuses: string;
  quietP95: number;
  p95: number;
  requests: number;
  errors: number;
  rssBeforeMb: number;
  rssPeakMb: number;
};

/** resident memory of a live process, MiB */
const rssMb = (pid: number | undefined) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');

  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
};

/** 9.6 MB of file per 1.15 M rows of 8-character names (the bomb) */
const ROWS_PER_MB = 1_150_000 / 9.6;

const bombs = async (mb: number) => {
  const declared = await bombXlsx({ rows: Math.round(mb * ROWS_PER_MB) });
  const lying = await bombXlsx({ rows: Math.round(mb * ROWS_PER_MB), lie: true });
  // ~120 bytes a row: 700,000 rows is ~84 MB unpacked, under the 100 MB cap
  const rows = await bombXlsx({ rows: 700_000 });

  return [
    ['declared', declared],
    ['lying', lying],
    ['rows', rows],
  ] as const;
};

const signUp = async (base: string, label: string) => {
  const email = `${label}-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@bench.test`;
  const password = 'Bench-Pass-1';
  const plans = (await json(base, { method: 'GET', path: '/api/plans/list' })) as { id: number }[];
  await json(
    base,
    {
      method: 'POST',
      path: '/api/companies/cadastro',
      body: { name: `Bench ${label}`, email, password, phone: '11999998888', planId: plans[0].id },
    },
    201,
  );
  const login = await json(base, { method: 'POST', path: '/api/auth/login', body: { email, password } });

  return login.token as string;
};

/**
 * The attackers' loop, in a worker thread of its own: building and sending 20 MB forms keeps an event loop busy,
 * and the victim's closed loop in this thread must measure the server, not this process's attacker.
 */
const ATTACKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, attackers, data } = workerData;
let running = true;
const statuses = [];
const upload = async (a) => {
  const form = new FormData();
  form.append('file', new Blob([data]), 'bomb.xlsx');
  try {
    const res = await fetch(base + '/api/contact-lists/' + a.listId + '/upload', {
      method: 'POST', headers: { authorization: 'Bearer ' + a.token }, body: form,
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0; // the server answered early and closed the connection under the body
  }
};
parentPort.on('message', () => { running = false; });
(async () => {
  while (running) statuses.push(...(await Promise.all(attackers.map(upload))));
  parentPort.postMessage(statuses);
})();
`;

/** uploads three at once (from a worker thread) until `stop()`; answers the statuses seen */
const attack = (server: TServer, attackers: { token: string; listId: number }[], data: Buffer) => {
  const worker = new Worker(ATTACKER, { eval: true, workerData: { base: server.url, attackers, data } });
  const result = new Promise<number[]>((resolve, reject) => {
    worker.once('message', (statuses: number[]) => resolve(statuses));
    worker.once('error', reject);
  });

  return {
    stop: async () => {
      worker.postMessage('stop');
      const statuses = await result;
      await worker.terminate();

      return statuses;
    },
  };
};

export const sheetBombs = async (
  kind: 'pglite' | 'postgres',
  pgUrl: string,
  opts: { mb: number; seconds: number; warmupSeconds: number },
): Promise<TSheetBench[]> => {
  const dataDir = tempDir('sheets');
  const db = kind === 'postgres' ? createPgDatabase(pgUrl, `zelo_bench_sheets_${Date.now()}`) : undefined;
  const server = await startServer({ dataDir, databaseUrl: db?.url, env: { RATE_LIMITS: 'off', JOBS: 'off' } });
  try {
    const victim = await signUp(server.url, 'victim');
    const attackers = [];
    for (let i = 0; i < 3; i += 1) {
      const token = await signUp(server.url, `attacker${i}`);
      const list = await json(
        server.url,
        { method: 'POST', path: '/api/contact-lists', token, body: { name: 'Bomb' } },
        201,
      );
      attackers.push({ token, listId: list.id as number });
    }
    const loop = { clients: SHEET_DEFAULTS.clients, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds };
    const tickets = () => ({ path: '/api/tickets?status=open&showAll=true', token: victim });
    const quiet = await closedLoopGets(server, loop, tickets);
    const out: TSheetBench[] = [];
    const files = await bombs(opts.mb);
    // growth is counted from the quiet server's memory for every bomb (what an earlier one left counts too)
    const rssBefore = rssMb(server.proc.pid);
    for (const [bomb, file] of files) {
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(server.proc.pid));
      }, 50);
      const running = attack(server, attackers, file.file);
      const measured = await closedLoopGets(server, loop, tickets);
      const statuses = await running.stop();
      clearInterval(sampler);
      const counts = new Map<number, number>();
      for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
      out.push({
        db: kind,
        bomb,
        fileMb: file.file.length / 1024 / 1024,
        unpackedMb: file.unpacked / 1024 / 1024,
        uploads: statuses.length,
        statuses: [...counts].map(([s, n]) => `${n}×${s}`).join(' '),
        quietP95: quiet.p95,
        p95: measured.p95,
        requests: measured.requests,
        errors: measured.errors,
        rssBeforeMb: rssBefore,
        rssPeakMb: peak,
      });
      console.log(`  ${bomb}: p95 ${fmt(measured.p95)} ms, RSS +${fmt(peak - rssBefore, 0)} MB`);
    }

    return out;
  } finally {
    await server.stop();
    db?.drop();
    removeDir(dataDir);
  }
};

export const sheetBombsTable = (rows: TSheetBench[]) =>
  [
    `Targets: the other company's ticket list p95 ≤ ${SHEET_DEFAULTS.p95TargetMs} ms, server memory ≤ +${SHEET_DEFAULTS.rssTargetMb} MB.`,
    '',
    '| database | bomb | file | unpacked | uploads (answers) | ticket list p95 quiet → under attack (requests, errors) | RSS before → peak (growth) |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.db} | ${r.bomb} | ${fmt(r.fileMb)} MB | ${fmt(r.unpackedMb, 0)} MB | ${r.uploads} (${r.statuses}) | ${fmt(r.quietP95)} → ${fmt(r.p95)} ms (${r.requests}, ${r.errors}) | ${fmt(r.rssBeforeMb, 0)} → ${fmt(r.rssPeakMb, 0)} MB (+${fmt(r.rssPeakMb - r.rssBeforeMb, 0)}) |`,
    ),
  ].join('\n');
