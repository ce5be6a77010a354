/**
 * `npm run backup -- --out zelo-2026-11-28.tar [--without-secrets]`: one archive of this Zelo (manifest.ts), taken
 * while it runs. The database is the one `npm start` opens (DATABASE_URL, else DATA_DIR/db): on PostgreSQL a
 * snapshot transaction; embedded, the directory itself when no server holds it, else a copy the running server
 * makes on request (snapshot.ts). The archive is written as `<out>.partial` (mode 0600: it holds the secret key)
 * and renamed once complete. Progress is shown on a terminal. Exit codes: 0 written, 1 failed, 2 nothing to back up.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { loadConfig } from '../config';
import { openPglite } from '../db/client';
import { acquireDirLock } from '../db/lock';
import { createProgress, formatBytes, parseArgs } from '../lib/progress';
import { writeBackup } from './backup';
import { pgliteSource, postgresSource, type TDbSource } from './db-export';
import { requestSnapshot } from './snapshot';

const openSource = async (
  config: ReturnType<typeof loadConfig>,
): Promise<{ source: TDbSource; pausedMs?: number; recopied?: number }> => {
  if (config.databaseUrl) return { source: await postgresSource(config.databaseUrl) };
  let release: (() => void) | undefined;
  try {
    release = acquireDirLock(config.dataDir);
  } catch {
    // a server holds the directory: it copies its database for us
  }
  if (release) {
    const database = await openPglite({ dataDir: resolve(config.dataDir, 'db') });
    return { source: pgliteSource(database.pglite!, async () => release?.()) };
  }
  const snapshot = await requestSnapshot(config.dataDir);
  const database = await openPglite({ dataDir: resolve(snapshot.dir, 'db') });

  return {
    source: pgliteSource(database.pglite!, () => rm(snapshot.dir, { recursive: true, force: true })),
    pausedMs: snapshot.pausedMs,
    recopied: snapshot.recopied,
  };
};

const main = async () => {
  const args = parseArgs(process.argv.slice(2));
  if (!args.out || args.out === 'true') {
    console.error('usage: npm run backup -- --out zelo-YYYY-MM-DD.tar [--without-secrets]');
    return 2;
  }
  const out = resolve(process.env.INIT_CWD ?? process.cwd(), args.out);
  const partial = `${out}.partial`;
  const config = loadConfig();
  if (!config.databaseUrl && !existsSync(resolve(config.dataDir, 'db'))) {
    console.error(`No embedded database in ${config.dataDir}/db: set DATA_DIR (or DATABASE_URL) as the server has it.`);
    return 2;
  }
  const progress = createProgress('backup');
  const { source, pausedMs, recopied } = await openSource(config);
  const file = createWriteStream(partial, { mode: 0o600 });
  try {
    const manifest = await writeBackup({
      config,
      source,
      out: file,
      pausedMs,
      withSecrets: args['without-secrets'] !== 'true',
      onProgress: (p) => progress.update(`${p.phase}: ${p.detail}, ${formatBytes(p.bytes)} written`),
    });
    file.end();
    await finished(file);
    await rename(partial, out);
    progress.clear();
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `${out}: ${manifest.tables.length} tables (${rows} rows), ${manifest.media.files} media files (${formatBytes(manifest.media.bytes)}), ` +
        `migration ${manifest.migrations.tag}, ${manifest.took.seconds.toFixed(1)} s` +
        (pausedMs !== undefined
          ? `, the running server paused ${pausedMs} ms for the copy (${recopied} files copied again)`
          : ''),
    );
    if (manifest.media.vanished.length > 0)
      console.log(`  ${manifest.media.vanished.length} media files vanished while read`);
    if (manifest.media.damaged.length > 0) console.log(`  damaged while read: ${manifest.media.damaged.join(', ')}`);
    if (args['without-secrets'] === 'true') {
      console.log('  without secrets: keep ZELO_SECRET_KEY (DATA_DIR/secret.key) to restore the tenant secrets');
    }

    return 0;
  } catch (err) {
    progress.clear();
    file.destroy();
    await rm(partial, { force: true });
    throw err;
  }
};

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`backup failed: ${(err as Error).message}`);
    process.exit(1);
  },
);
