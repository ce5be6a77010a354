/**
 * Backup and restore of the generated inbox plus media (issue 24), and the media store's throughput:
 *
 *   node --import tsx bench/backup.ts [--media-mb 2048] [--skip-store]
 *
 * 1. The generated inbox on PostgreSQL (100k tickets / ~1M messages, copied from the kept template:
 *    inbox-cache.ts; generated first when there is none) and `--media-mb` of media files (random bytes, 64 KB to
 *    8 MB, mostly small, as a chat's photos, notes and documents) in DATA_DIR/media.
 * 2. `npm run backup`'s command against it, then `npm run restore`'s into a fresh PostgreSQL database and a fresh
 *    DATA_DIR: wall time and the command's peak resident memory (VmHWM, read from /proc while it runs).
 * 3. The media store: 1 MB and 8 MB files put and read back through the store interface, 4 at a time, on the local
 *    folder and on an S3-compatible server on loopback (s3rver): MB/s and p50/p95 per file.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { INBOX_DEFAULTS } from './inbox';
import { generateInbox, pgExec, type TGenerated, verifyGenerated } from './generate';
import { copyTemplate, inboxTemplateName, saveTemplate, templateExists } from './inbox-cache';
import { machine, percentile, removeDir, ROOT, startServer, tempDir } from './lib';

const { values } = parseArgs({
  options: {
    'media-mb': { type: 'string', default: '2048' },
    'skip-store': { type: 'boolean', default: false },
    'skip-backup': { type: 'boolean', default: false },
    // also restore the archive into an embedded DATA_DIR, start a server on it and back it up while it runs
    embedded: { type: 'boolean', default: false },
  },
});
const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const psql = (url: string, sql: string) =>
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql], { encoding: 'utf8' }).trim();
const dbUrl = (name: string) => {
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** random media files adding up to `mb`: sizes 64 KB … 8 MB, most below 1 MB */
const makeMedia = (dir: string, mb: number) => {
  mkdirSync(dir, { recursive: true });
  const block = randomBytes(8 * 1024 * 1024);
  let left = mb * 1024 * 1024;
  let files = 0;
  while (left > 0) {
    const pick = files % 10;
    const size = Math.min(
      left,
      pick < 6 ? 64 * 1024 * (1 + (files % 7)) : pick < 9 ? 1024 * 1024 * (1 + (files % 3)) : 8 * 1024 * 1024,
    );
    const data = Buffer.from(block.subarray(0, size));
    data.writeUInt32BE(files, 0);
    writeFileSync(join(dir, `${randomBytes(16).toString('hex')}.${pick < 6 ? 'jpg' : pick < 9 ? 'ogg' : 'mp4'}`), data);
    left -= size;
    files += 1;
  }
  return files;
};

/** runs a command of the server's, answering its wall time, peak resident memory and output */
const runMeasured = (script: string, args: string[], env: Record<string, string>) =>
  new Promise<{ seconds: number; peakMb: number; out: string; code: number }>((done) => {
    const started = performance.now();
    const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, script), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    let peakKb = 0;
    const poll = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
        const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peakKb = Math.max(peakKb, hwm);
      } catch {
        // exited
      }
    }, 100);
    proc.on('exit', (code) => {
      clearInterval(poll);
      done({ seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, out, code: code ?? -1 });
    });
  });

/** the generated inbox as inbox.ts keeps it (a template database), made here when no earlier run left one */
const generateTemplate = async (template: string) => {
  const name = `backup_bench_gen_${randomBytes(3).toString('hex')}`;
  psql(BASE_URL, `create database ${name}`);
  try {
    const { openPostgres, runMigrations } = await import('../apps/server/src/db/client');
    const database = await openPostgres(dbUrl(name), 2);
    await runMigrations(database);
    await database.close();
    const started = performance.now();
    const db = await pgExec(dbUrl(name));
    let generated: TGenerated;
    try {
      generated = await generateInbox(db.exec, {
        tickets: INBOX_DEFAULTS.tickets,
        messagesPerTicket: INBOX_DEFAULTS.messagesPerTicket,
        log: console.log,
      });
      const broken = Object.entries(await verifyGenerated(db.exec)).filter(([, n]) => n > 0);
      if (broken.length) throw new Error(`generated data broken: ${JSON.stringify(broken)}`);
    } finally {
      await db.close();
    }
    saveTemplate(BASE_URL, name, template, { ...generated, generateMs: performance.now() - started });
  } finally {
    psql(BASE_URL, `drop database if exists ${name} with (force)`);
  }
};

const backupBench = async () => {
  const template = inboxTemplateName({
    tickets: INBOX_DEFAULTS.tickets,
    messagesPerTicket: INBOX_DEFAULTS.messagesPerTicket,
  });
  if (!templateExists(BASE_URL, template)) await generateTemplate(template);
  const source = `backup_bench_src_${randomBytes(3).toString('hex')}`;
  const target = `backup_bench_dst_${randomBytes(3).toString('hex')}`;
  const dataDir = tempDir('backup-src');
  const intoDir = tempDir('backup-dst');
  const archiveDir = tempDir('backup-archive');
  const dirs: string[] = [];
  try {
    copyTemplate(BASE_URL, template, source);
    const rows = psql(
      dbUrl(source),
      "select (select count(*) from tickets) || ' tickets, ' || (select count(*) from messages) || ' messages'",
    );
    const files = makeMedia(join(dataDir, 'media'), Number(values['media-mb']));
    psql(BASE_URL, `create database ${target}`);
    const archive = join(archiveDir, 'zelo.tar');
    console.log(`source: ${rows}, ${files} media files (${values['media-mb']} MB); load ${load()}`);
    const backup = await runMeasured('apps/server/src/backup/backup-cli.ts', ['--out', archive], {
      DATABASE_URL: dbUrl(source),
      DATA_DIR: dataDir,
    });
    if (backup.code !== 0) throw new Error(backup.out);
    const size = statSync(archive).size / 1024 / 1024;
    console.log(
      `backup: ${backup.seconds.toFixed(1)} s, peak RSS ${backup.peakMb.toFixed(0)} MB, archive ${size.toFixed(0)} MB; load ${load()}`,
    );
    console.log(`  ${backup.out.trim()}`);
    const restore = await runMeasured('apps/server/src/backup/restore-cli.ts', ['--in', archive], {
      DATABASE_URL: dbUrl(target),
      DATA_DIR: intoDir,
    });
    if (restore.code !== 0) throw new Error(restore.out);
    console.log(`restore: ${restore.seconds.toFixed(1)} s, peak RSS ${restore.peakMb.toFixed(0)} MB; load ${load()}`);
    console.log(`  ${restore.out.trim()}`);
    if (values.embedded) {
      const embeddedDir = tempDir('backup-embedded');
      dirs.push(embeddedDir);
      const intoEmbedded = await runMeasured('apps/server/src/backup/restore-cli.ts', ['--in', archive], {
        DATA_DIR: embeddedDir,
      });
      if (intoEmbedded.code !== 0) throw new Error(intoEmbedded.out);
      console.log(
        `restore into PGlite: ${intoEmbedded.seconds.toFixed(1)} s, peak RSS ${intoEmbedded.peakMb.toFixed(0)} MB; load ${load()}`,
      );
      const server = await startServer({
        dataDir: embeddedDir,
        env: { JOBS: 'off', RATE_LIMITS: 'off' },
        timeoutMs: 180_000,
      });
      try {
        const again = join(archiveDir, 'embedded.tar');
        const running = await runMeasured('apps/server/src/backup/backup-cli.ts', ['--out', again], {
          DATA_DIR: embeddedDir,
        });
        if (running.code !== 0) throw new Error(running.out);
        console.log(
          `backup of the running embedded server: ${running.seconds.toFixed(1)} s, peak RSS ${running.peakMb.toFixed(0)} MB; load ${load()}`,
        );
        console.log(`  ${running.out.trim()}`);
      } finally {
        await server.stop();
      }
    }
  } finally {
    for (const dir of dirs) removeDir(dir);
    psql(BASE_URL, `drop database if exists ${source} with (force)`);
    psql(BASE_URL, `drop database if exists ${target} with (force)`);
    for (const dir of [dataDir, intoDir, archiveDir]) removeDir(dir);
  }
};

const storeBench = async () => {
  const { openMediaStore } = await import('../apps/server/src/media/store');
  const { startS3Server } = await import('../apps/server/test/s3-server');
  const { loadConfig } = await import('../apps/server/src/config');
  const s3 = await startS3Server('bench-media');
  const localDir = tempDir('store-local');
  try {
    const stores = [
      ['local folder', await openMediaStore({ store: 'local', dir: localDir })],
      ['S3 (s3rver, loopback)', await openMediaStore(loadConfig({ DATA_DIR: tempDir('store-cfg'), ...s3.env }).media)],
    ] as const;
    for (const mb of [1, 8]) {
      const data = randomBytes(mb * 1024 * 1024);
      const count = mb === 1 ? 200 : 40;
      for (const [label, store] of stores) {
        const names = Array.from({ length: count }, (_, i) => `bench-${mb}-${i}-${randomBytes(4).toString('hex')}.bin`);
        const timed = async (work: (name: string) => Promise<unknown>) => {
          const times: number[] = [];
          const started = performance.now();
          let next = 0;
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              while (next < names.length) {
                const name = names[next++] as string;
                const t = performance.now();
                await work(name);
                times.push(performance.now() - t);
              }
            }),
          );
          const seconds = (performance.now() - started) / 1000;
          times.sort((a, b) => a - b);
          return { mbps: (count * mb) / seconds, p50: percentile(times, 50), p95: percentile(times, 95) };
        };
        const put = await timed((name) => store.put(name, data));
        const get = await timed(async (name) => {
          const file = await store.open(name);
          if (!file || file === 'unsatisfiable') throw new Error('missing');
          for await (const _ of file.body) {
            // read through
          }
        });
        console.log(
          `| ${label} | ${mb} MB × ${count} | ${put.mbps.toFixed(0)} MB/s, p50 ${put.p50.toFixed(1)} ms, p95 ${put.p95.toFixed(1)} ms | ${get.mbps.toFixed(0)} MB/s, p50 ${get.p50.toFixed(1)} ms, p95 ${get.p95.toFixed(1)} ms |`,
        );
      }
    }
    for (const [, store] of stores) store.close();
  } finally {
    await s3.close();
    removeDir(localDir);
  }
};

console.log(`machine: ${machine()}; load ${load()}`);
if (!values['skip-backup']) await backupBench();
if (!values['skip-store']) await storeBench();
console.log(`load after: ${load()}`);
process.exit(0);
