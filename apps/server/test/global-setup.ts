import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres, runMigrations } from '../src/db/client';

/**
 * The migrated PGlite database as a data-dir dump. Uncompressed (32 MB): PGlite loads it in ~1.5 s where the gzip
 * one took ~3.9 s, and every test file on PGlite loads it once (135 files: ~5 minutes of the suite's CPU).
 */
export const TEMPLATE_FILE = resolve(import.meta.dirname, '../../../.test-data/pglite-template.tar');

/**
 * One migrated database per run, copied for every test file: a PGlite data-dir dump, or a PostgreSQL
 * template database when TEST_DATABASE_URL is set.
 */
export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `zelo_tmpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openPostgres(target.toString(), 2);
    await runMigrations(database);
    await database.close();
    provide('pgTemplate', name);

    return async () => {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    };
  }
  const database = await openPglite({});
  await runMigrations(database);
  const dump = await database.pglite!.dumpDataDir('none');
  mkdirSync(resolve(TEMPLATE_FILE, '..'), { recursive: true });
  writeFileSync(TEMPLATE_FILE, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  provide('pgTemplate', '');
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
  }
}
