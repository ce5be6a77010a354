import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBackup } from '../src/backup/backup';
import { pgliteSource } from '../src/backup/db-export';
import { restoreArchive } from '../src/backup/restore';
import { verifyArchive } from '../src/backup/verify';
import { loadConfig } from '../src/config';
import { openPglite, runMigrations } from '../src/db/client';
import { mediaStore } from '../src/media/store';
import { createBucket, startS3Server, type TS3Server } from './s3-server';

/** A Zelo whose media live in a bucket: backed up from the bucket, restored into another bucket and directory. */
let s3: TS3Server;
const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `zelo-${label}-`));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  s3 = await startS3Server('backup-source');
});
afterAll(async () => {
  await s3.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore with MEDIA_STORE=s3', () => {
  it('takes the media from the bucket and puts them back into the target bucket, byte for byte', async () => {
    const source = tempDir('bk-s3-source');
    const database = await openPglite({ dataDir: join(source, 'db') });
    await runMigrations(database);
    await database.executeSql(`insert into plans (name) values ('Plano do balde')`);
    await database.close();
    const config = loadConfig({ DATA_DIR: source, ...s3.env });
    const store = await mediaStore(config);
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 3; i++) {
      const data = Buffer.alloc(10_000 * (i + 1), i + 65);
      files.set(`file${i}.pdf`, data);
      await store.put(`file${i}.pdf`, data);
    }

    const archive = join(tempDir('bk-s3-archive'), 'zelo.tar');
    const out = createWriteStream(archive);
    const manifest = await writeBackup({
      config,
      source: pgliteSource((await openPglite({ dataDir: join(source, 'db') })).pglite!),
      out,
    });
    out.end();
    await finished(out);
    expect(manifest.mediaStore).toBe('s3');
    expect(manifest.media.files).toBe(3);

    const verified = await verifyArchive(archive);
    const into = tempDir('bk-s3-into');
    const target = loadConfig({
      DATA_DIR: into,
      ...(await createBucket(s3, 'backup-target')),
      ZELO_SECRET_KEY: verified.secretKey!,
    });
    const report = await restoreArchive({ config: target, archive, verified, force: false });
    expect(report.media).toBe(3);
    const restored = await mediaStore(target);
    for (const [name, data] of files) expect(await restored.read(name)).toEqual(data);
    const back = await openPglite({ dataDir: join(into, 'db') });
    const plans = await back.executeSql(`select count(*)::int as n from plans where name = 'Plano do balde'`);
    expect((plans.rows[0] as { n: number }).n).toBe(1);
    await back.close();
  });
});
