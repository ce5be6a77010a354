/**
 * Restores an archive into the target `npm start` would open (restore-cli.ts): the database named by
 * DATABASE_URL or the embedded one under DATA_DIR, and the media store MEDIA_STORE names. In order:
 *
 * 1. the archive is read once and checked (verify.ts); nothing is written before it passes;
 * 2. the target must be empty (no table in the database, no file in the media store), else it is refused, or
 *    with `force` wiped (the database's schemas dropped, the embedded directory removed; media files already in
 *    the store are kept and the archive's written over them);
 * 3. the schema is built up to the archive's migration level (levels.ts), the rows loaded (db-import.ts), the
 *    sequences set and each table's count checked against the manifest, in one transaction;
 * 4. the media files are streamed into the store;
 * 5. the remaining migrations run, with the archive's secret key in use (so a migration that seals or reads tenant
 *    secrets finds them as the source server left them), then ANALYZE.
 *
 * The secrets are the caller's (restore-cli.ts writes them where the server reads them).
 */
import { createReadStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { TConfig } from '../config';
import { openDatabase, runMigrations, type TDatabase } from '../db/client';
import { sealLegacySecrets } from '../db/seal-legacy-secrets';
import { useSecretKey } from '../lib/secrets';
import { isMediaName, mediaStore } from '../media/store';
import { openTableSink } from './db-import';
import { migrationsUpTo } from './levels';
import type { TManifest } from './manifest';
import { readTar } from './tar';
import { ArchiveError, type TVerified } from './verify';

export type TRestoreProgress = { phase: 'database' | 'media' | 'migrations'; read: number; total: number };

/** what the target holds now: tables in the database, files in the media store (counted up to 1) */
export const targetContents = async (config: TConfig) => {
  let tables = 0;
  if (config.databaseUrl) {
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname in ('public', 'drizzle', 'pgboss') and c.relkind in ('r', 'p')`,
      );
      tables = rows[0].n;
    } finally {
      await client.end();
    }
  } else {
    tables = (await readdir(resolve(config.dataDir, 'db')).catch(() => [])).length;
  }
  let media = 0;
  for await (const _ of (await mediaStore(config)).list()) {
    media = 1;
    break;
  }

  return { tables, media };
};

const wipeDatabase = async (config: TConfig) => {
  if (!config.databaseUrl) {
    await rm(resolve(config.dataDir, 'db'), { recursive: true, force: true });
    return;
  }
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await client.query(
      'drop schema if exists pgboss cascade; drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public',
    );
  } finally {
    await client.end();
  }
};

/** builds the schema at the archive's level: the build's first `level` migrations */
const migrateTo = async (database: TDatabase, level: number) => {
  const folder = migrationsUpTo(level);
  try {
    if (database.kind === 'pglite') {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(database.db as never, { migrationsFolder: folder });
    } else {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await migrate(database.db as never, { migrationsFolder: folder });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};

/** the archive's tables as the target has them at that level: a table the migrations do not make is left out */
const tablesInTarget = async (database: TDatabase, manifest: TManifest) => {
  const { rows } = await database.executeSql(
    `select c.relname as name, json_agg(a.attname) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public' and c.relkind = 'r' group by c.relname`,
  );
  const target = new Map((rows as { name: string; columns: string[] }[]).map((r) => [r.name, new Set(r.columns)]));
  const skipped: string[] = [];
  const loaded = new Map<string, TManifest['tables'][number]>();
  for (const table of manifest.tables) {
    const columns = target.get(table.name);
    if (!columns) {
      skipped.push(table.name);
      continue;
    }
    const missing = table.columns.filter((c) => !columns.has(c));
    if (missing.length > 0) {
      throw new ArchiveError(`${table.name} lacks ${missing.join(', ')} at the archive's migration level`);
    }
    loaded.set(table.name, table);
  }

  return { loaded, skipped };
};

export type TRestoreReport = { tables: number; rows: number; media: number; mediaBytes: number; skipped: string[] };

export const restoreArchive = async (opts: {
  config: TConfig;
  archive: string;
  verified: TVerified;
  force: boolean;
  onProgress?: (p: TRestoreProgress) => void;
}): Promise<TRestoreReport> => {
  const { config, verified } = opts;
  const { manifest } = verified;
  if (opts.force) await wipeDatabase(config);
  const database = await openDatabase(config);
  const total = Object.values(manifest.entries).reduce((sum, e) => sum + e.size, 0);
  try {
    await migrateTo(database, verified.level);
    const { loaded, skipped } = await tablesInTarget(database, manifest);
    const store = await mediaStore(config);
    const report: TRestoreReport = { tables: loaded.size, rows: 0, media: 0, mediaBytes: 0, skipped };
    let sink = await openTableSink(database);
    let sinkOpen = true;
    let read = 0;
    const closeSink = async () => {
      if (!sinkOpen) return;
      sinkOpen = false;
      await sink.finish({ ...manifest, tables: [...loaded.values()] });
    };
    const counted = async function* (body: AsyncIterable<Buffer>, phase: TRestoreProgress['phase']) {
      for await (const part of body) {
        read += part.length;
        opts.onProgress?.({ phase, read, total });
        yield part;
      }
    };
    try {
      for await (const entry of readTar(createReadStream(opts.archive, { highWaterMark: 1024 * 1024 }))) {
        if (entry.name.startsWith('db/')) {
          const table = loaded.get(entry.name.split('/')[1] as string);
          if (table) await sink.write(table, counted(entry.body, 'database'));
          continue;
        }
        if (entry.name.startsWith('media/')) {
          await closeSink();
          const name = entry.name.slice('media/'.length);
          if (!isMediaName(name) || manifest.media.damaged.includes(name)) continue;
          await store.put(name, Readable.from(counted(entry.body, 'media')), {
            size: entry.size,
            sha256: manifest.entries[entry.name]?.sha256,
          });
          report.media += 1;
          report.mediaBytes += entry.size;
        }
      }
      await closeSink();
    } catch (err) {
      if (sinkOpen) await sink.abort();
      sink = undefined as never;
      throw err;
    }
    report.rows = [...loaded.values()].reduce((sum, t) => sum + t.rows, 0);
    opts.onProgress?.({ phase: 'migrations', read, total });
    // the later migrations, as a server of this build would run them at start, with the archive's key in use
    useSecretKey(config.secretKey);
    await runMigrations(database, (db) => sealLegacySecrets(db));
    await database.executeSql('analyze');

    return report;
  } finally {
    await database.close();
  }
};
