/**
 * Writes one archive (manifest.ts says what it holds) to a stream: the database from a TDbSource (db-export.ts),
 * closed as soon as its tables are out (the PostgreSQL snapshot ends, the PGlite copy is removed), then the media
 * from the media store one file at a time, then the secrets and the manifest. Memory stays flat whatever the
 * size: tables leave in ~8 MB chunks and files as streams.
 *
 * Media and the database are not one snapshot: a file written after the database's snapshot may be in the
 * archive without a row (harmless), and a file deleted before it was reached is listed as `vanished` (its row was
 * deleted too, unless it was removed from outside Zelo).
 */
import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import { APP_VERSION } from '@zelo/shared';
import type { TConfig } from '../config';
import { isMediaName, mediaStore } from '../media/store';
import { countRows, type TDbSource } from './db-export';
import { journalTag } from './levels';
import {
  ARCHIVE_FORMAT,
  HEAD_ENTRY,
  JWT_ENTRY,
  MANIFEST_ENTRY,
  MANIFEST_SUM_ENTRY,
  mediaEntry,
  SECRET_KEY_ENTRY,
  type THead,
  type TManifest,
  tableEntry,
} from './manifest';
import { createTarWriter } from './tar';

export type TBackupProgress = { phase: 'database' | 'media' | 'done'; detail: string; bytes: number };

export const writeBackup = async (opts: {
  config: TConfig;
  source: TDbSource;
  out: Writable;
  pausedMs?: number;
  withSecrets?: boolean;
  onProgress?: (p: TBackupProgress) => void;
}): Promise<TManifest> => {
  const started = Date.now();
  const tar = createTarWriter(opts.out);
  const entries: TManifest['entries'] = {};
  const add = async (name: string, data: Buffer) => {
    const written = await tar.add(name, data);
    entries[name] = { size: written.size, sha256: written.sha256 };
  };
  const progress = (phase: TBackupProgress['phase'], detail: string) =>
    opts.onProgress?.({ phase, detail, bytes: tar.bytes });

  let head: THead;
  const tables: TManifest['tables'] = [];
  let sequences: TManifest['sequences'];
  try {
    const migrations = await opts.source.migrations();
    head = {
      format: ARCHIVE_FORMAT,
      zelo: APP_VERSION,
      createdAt: new Date().toISOString(),
      source: opts.source.kind,
      mediaStore: opts.config.media.store,
      migrations: { ...migrations, tag: journalTag(migrations.when) },
    };
    await add(HEAD_ENTRY, Buffer.from(JSON.stringify(head, null, 2)));
    for (const table of await opts.source.tables()) {
      let rows = 0;
      let n = 0;
      for await (const chunk of opts.source.rows(table)) {
        n += 1;
        rows += countRows(chunk);
        await add(tableEntry(table.name, n), chunk);
        progress('database', `${table.name}: ${rows} rows`);
      }
      tables.push({ name: table.name, columns: table.columns, rows, entries: n });
    }
    sequences = await opts.source.sequences();
  } finally {
    await opts.source.close();
  }

  const media: TManifest['media'] = { files: 0, bytes: 0, vanished: [], damaged: [] };
  const store = await mediaStore(opts.config);
  for await (const { name, size } of store.list()) {
    if (!isMediaName(name)) continue;
    const file = await store.open(name);
    if (!file || file === 'unsatisfiable') {
      media.vanished.push(name);
      continue;
    }
    const entry = mediaEntry(name);
    const written = await tar.addStream(entry, file.size ?? size, file.body, file.lastModified ?? new Date());
    if (written.short) media.damaged.push(name);
    entries[entry] = { size: written.size, sha256: written.sha256 };
    media.files += 1;
    media.bytes += written.size;
    progress('media', `${media.files} files`);
  }

  const withSecrets = opts.withSecrets !== false;
  if (withSecrets) {
    await add(SECRET_KEY_ENTRY, Buffer.from(opts.config.secretKey.toString('hex')));
    await add(
      JWT_ENTRY,
      Buffer.from(JSON.stringify({ jwtSecret: opts.config.jwtSecret, jwtRefreshSecret: opts.config.jwtRefreshSecret })),
    );
  }
  const manifest: TManifest = {
    ...head,
    tables,
    sequences,
    media,
    secrets: { secretKey: withSecrets, jwt: withSecrets },
    entries,
    took: { seconds: (Date.now() - started) / 1000, pausedMs: opts.pausedMs },
  };
  const manifestBytes = Buffer.from(JSON.stringify(manifest));
  await tar.add(MANIFEST_ENTRY, manifestBytes);
  await tar.add(MANIFEST_SUM_ENTRY, Buffer.from(createHash('sha256').update(manifestBytes).digest('hex')));
  await tar.finish();
  progress('done', `${tar.bytes} bytes`);

  return manifest;
};
