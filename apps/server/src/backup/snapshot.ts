/**
 * A consistent copy of a running embedded database, for `npm run backup` while the server runs. PGlite lives
 * inside the server process and allows one process on its directory, so the backup asks the server, over a Unix
 * socket in DATA_DIR (`zelo-control.sock`, mode 0600: only the server's own user reaches it, nothing on the
 * network), to copy its data directory (`snapshotPglite`: a copy while it runs, then the files that changed meanwhile
 * copied again with PGlite's transaction lock held; copy-on-write clones where the file system offers them), and
 * answers the copy's path. That copy is the state of a server stopped between two transactions; the backup opens it
 * in its own process (PostgreSQL's crash recovery replays the WAL written since the checkpoint), exports it and
 * removes it. The pause is the second pass only (BENCHMARKS.md "Backup and restore, media store"); requests
 * meanwhile wait, none fails.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

export const CONTROL_SOCKET = 'zelo-control.sock';
/** a Unix socket's path is limited to about 107 bytes */
const SOCKET_PATH_MAX = 100;

type TStamp = { size: bigint; mtimeNs: bigint };

/** every file under `dir` (relative paths) with its size and modification time; every folder into `folders` */
const listFiles = async (dir: string, folders: Set<string>, rel = '', into = new Map<string, TStamp>()) => {
  for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = join(rel, entry.name);
    if (entry.isDirectory()) {
      // PostgreSQL needs its empty folders too (pg_wal/archive_status, pg_tblspc…)
      folders.add(path);
      await listFiles(dir, folders, path, into);
    } else if (entry.isFile()) {
      const info = await stat(join(dir, path), { bigint: true }).catch(() => undefined);
      if (info) into.set(path, { size: info.size, mtimeNs: info.mtimeNs });
    }
  }
  return into;
};

const copyOne = async (from: string, to: string, rel: string) => {
  await mkdir(dirname(join(to, rel)), { recursive: true });
  await copyFile(join(from, rel), join(to, rel), constants.COPYFILE_FICLONE);
};

/** a file changed this recently may change again within the file system's timestamp granularity: copied again */
const SETTLED_NS = 2_000_000_000n;

/**
 * Copies the database directory `dbDir` into `into` as it is between two transactions; answers the pause (ms)
 * and the files copied during it. First a CHECKPOINT, then every file is copied while the server runs (a file
 * written meanwhile is inconsistent, which the second pass mends); then, holding PGlite's transaction lock —
 * query(), exec() and transaction() all take it, so no statement runs, and PGlite has no background writer —
 * the files whose size or time changed since they were listed, or that were changing then, are copied again,
 * new ones added and removed ones deleted. The pause is the second pass only.
 */
export const snapshotPglite = async (pglite: PGlite, dbDir: string, into: string) => {
  await pglite.exec('checkpoint');
  const listedAt = BigInt(Date.now()) * 1_000_000n;
  const folders = new Set<string>();
  const before = await listFiles(dbDir, folders);
  for (const rel of folders) await mkdir(join(into, rel), { recursive: true });
  for (const rel of before.keys()) await copyOne(dbDir, into, rel).catch(() => undefined);

  return pglite._runExclusiveTransaction(async () => {
    const started = performance.now();
    const foldersNow = new Set<string>();
    const now = await listFiles(dbDir, foldersNow);
    for (const rel of foldersNow) if (!folders.has(rel)) await mkdir(join(into, rel), { recursive: true });
    let recopied = 0;
    for (const [rel, stamp] of now) {
      const was = before.get(rel);
      const unchanged =
        was && was.size === stamp.size && was.mtimeNs === stamp.mtimeNs && listedAt - was.mtimeNs > SETTLED_NS;
      if (unchanged) continue;
      await copyOne(dbDir, into, rel);
      recopied += 1;
    }
    for (const rel of before.keys()) if (!now.has(rel)) await rm(join(into, rel), { force: true });

    return { pausedMs: Math.round(performance.now() - started), recopied };
  });
};

/** the server's side: answers snapshot requests on DATA_DIR/zelo-control.sock; undefined when the path is too long */
export const startSnapshotService = async (opts: {
  dataDir: string;
  pglite: PGlite;
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}): Promise<(() => Promise<void>) | undefined> => {
  const path = join(opts.dataDir, CONTROL_SOCKET);
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX) {
    opts.log.warn({ path }, 'DATA_DIR is too long a path for the backup socket: a backup needs the server stopped');
    return undefined;
  }
  // the caller holds the directory lock: a socket file left there is a dead server's
  await rm(path, { force: true });
  let busy = false;
  const server: Server = createServer((socket) => {
    let line = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      line += chunk;
      if (!line.includes('\n') || line.length > 1000) return;
      const request = (() => {
        try {
          return JSON.parse(line.split('\n')[0] as string) as { op?: string };
        } catch {
          return {};
        }
      })();
      if (request.op !== 'snapshot' || busy) {
        socket.end(
          `${JSON.stringify({ ok: false, error: busy ? 'a backup is already running' : 'unknown request' })}\n`,
        );
        return;
      }
      busy = true;
      const into = join(opts.dataDir, `.backup-${process.pid}-${randomBytes(4).toString('hex')}`);
      snapshotPglite(opts.pglite, join(opts.dataDir, 'db'), join(into, 'db'))
        .then(({ pausedMs, recopied }) => {
          opts.log.info({ pausedMs, recopied }, 'database copied for a backup');
          socket.end(`${JSON.stringify({ ok: true, dir: into, pausedMs, recopied })}\n`);
        })
        .catch(async (err: Error) => {
          await rm(into, { recursive: true, force: true });
          socket.end(`${JSON.stringify({ ok: false, error: err.message })}\n`);
        })
        .finally(() => {
          busy = false;
        });
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(path, () => ok());
  });
  await chmod(path, 0o600);

  return () =>
    new Promise<void>((done) => {
      server.close(() => done());
    });
};

/** the backup's side: asks the server holding `dataDir` for a copy; answers its directory (holding `db/`) */
export const requestSnapshot = (dataDir: string) =>
  new Promise<{ dir: string; pausedMs: number; recopied: number }>((ok, fail) => {
    const socket = createConnection(join(dataDir, CONTROL_SOCKET));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ op: 'snapshot' })}\n`));
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', (err) =>
      fail(new Error(`the running server did not answer on ${join(dataDir, CONTROL_SOCKET)}: ${err.message}`)),
    );
    socket.on('end', () => {
      try {
        const parsed = JSON.parse(answer) as {
          ok: boolean;
          dir?: string;
          pausedMs?: number;
          recopied?: number;
          error?: string;
        };
        if (parsed.ok && parsed.dir)
          ok({ dir: parsed.dir, pausedMs: parsed.pausedMs ?? 0, recopied: parsed.recopied ?? 0 });
        else fail(new Error(`the running server refused the snapshot: ${parsed.error}`));
      } catch {
        fail(new Error('the running server gave no snapshot'));
      }
    });
  });
