/**
 * `npm run restore -- --in zelo-….tar [--force]`: restores an archive into the target `npm start` would open
 * (restore.ts), with the same environment as the server. Refuses (exit 2, nothing written) a damaged archive, one
 * from a newer Zelo, a target that is not empty (without --force), an embedded directory a server holds, and a
 * ZELO_SECRET_KEY set in the environment that is not the archive's (its tenant secrets could not be read). The
 * archive's secret key and signing secrets are written to DATA_DIR/secret.key and DATA_DIR/secrets.json unless
 * the environment sets them (a file they replace is kept beside it as `.before-restore`). Exit 1: failed part way
 * (run again with --force).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, parseSecretKey } from '../config';
import { acquireDirLock } from '../db/lock';
import { createProgress, formatBytes, parseArgs } from '../lib/progress';
import { restoreArchive, targetContents } from './restore';
import { ArchiveError, verifyArchive } from './verify';

/** writes `content` to `file`, keeping a different earlier content beside it */
const keep = (file: string, content: string) => {
  if (existsSync(file)) {
    if (readFileSync(file, 'utf8').trim() === content.trim()) return;
    renameSync(file, `${file}.before-restore`);
  }
  writeFileSync(file, content, { mode: 0o600 });
};

const main = async () => {
  const args = parseArgs(process.argv.slice(2));
  if (!args.in || args.in === 'true') {
    console.error('usage: npm run restore -- --in zelo-YYYY-MM-DD.tar [--force]');
    return 2;
  }
  const archive = resolve(process.env.INIT_CWD ?? process.cwd(), args.in);
  const force = args.force === 'true';
  const progress = createProgress('restore');
  const verified = await verifyArchive(archive, (read, total) =>
    progress.update(`checking ${formatBytes(read)} of ${formatBytes(total)}`),
  );
  progress.clear();
  const { manifest } = verified;
  const env = { ...process.env };
  const envKey = env.ZELO_SECRET_KEY ? parseSecretKey(env.ZELO_SECRET_KEY)?.toString('hex') : undefined;
  if (envKey && verified.secretKey && envKey !== verified.secretKey) {
    console.error(
      'ZELO_SECRET_KEY is set to another key than the archive was sealed with: unset it (the archive brings its own) or set it to the original',
    );
    return 2;
  }
  if (!envKey && verified.secretKey) env.ZELO_SECRET_KEY = verified.secretKey;
  const envJwt = Boolean(env.JWT_SECRET && env.JWT_REFRESH_SECRET);
  if (!envJwt && verified.jwt) {
    env.JWT_SECRET = verified.jwt.jwtSecret;
    env.JWT_REFRESH_SECRET = verified.jwt.jwtRefreshSecret;
  }
  const config = loadConfig(env);
  let release: () => void = () => undefined;
  if (!config.databaseUrl) {
    try {
      release = acquireDirLock(config.dataDir);
    } catch (err) {
      console.error(`${(err as Error).message}\nStop the server using DATA_DIR=${config.dataDir} first.`);
      return 2;
    }
  }
  try {
    const contents = await targetContents(config);
    if ((contents.tables > 0 || contents.media > 0) && !force) {
      console.error(
        `The target is not empty (${contents.tables > 0 ? `${config.databaseUrl ? 'the database has tables' : `${config.dataDir}/db exists`}` : ''}${contents.tables > 0 && contents.media > 0 ? '; ' : ''}${contents.media > 0 ? 'the media store has files' : ''}): nothing restored. --force replaces its database (media files are kept and overwritten by name).`,
      );
      return 2;
    }
    const started = Date.now();
    const report = await restoreArchive({
      config,
      archive,
      verified,
      force,
      onProgress: (p) =>
        progress.update(
          p.phase === 'migrations'
            ? 'migrating forward'
            : `${p.phase}: ${formatBytes(p.read)} of ${formatBytes(p.total)}`,
        ),
    });
    progress.clear();
    if (!envKey && verified.secretKey) keep(resolve(config.dataDir, 'secret.key'), verified.secretKey);
    if (!envJwt && verified.jwt) keep(resolve(config.dataDir, 'secrets.json'), JSON.stringify(verified.jwt));
    console.log(
      `restored ${archive} (Zelo ${manifest.zelo}, ${manifest.createdAt}, migration ${manifest.migrations.tag}) into ` +
        `${config.databaseUrl ? 'PostgreSQL' : `${config.dataDir}/db`}: ${report.tables} tables, ${report.rows} rows, ` +
        `${report.media} media files (${formatBytes(report.mediaBytes)}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (report.skipped.length > 0) console.log(`  not part of Zelo's schema, left out: ${report.skipped.join(', ')}`);
    if (!verified.secretKey) {
      console.log('  the archive holds no secret key: start the server with the original ZELO_SECRET_KEY');
    } else if (!envKey) {
      console.log(
        `  the secret key is in ${resolve(config.dataDir, 'secret.key')}: every node needs it (ZELO_SECRET_KEY)`,
      );
    }

    return 0;
  } finally {
    release();
  }
};

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ArchiveError ? err.message : `restore failed: ${(err as Error).message}`);
    process.exit(err instanceof ArchiveError ? 2 : 1);
  },
);
