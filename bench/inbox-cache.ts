import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TGenerated } from './generate';
import { ROOT } from './lib';

/**
 * The generated inbox on PostgreSQL, kept between runs as a template database (generating 100k tickets and
 * 1M messages takes minutes on a loaded machine): `zelo_bench_inbox_<key>`, where the key hashes the
 * generator, the migrations and the generated size, so a change to any of them generates again. A run
 * copies the template (`create database … template …`, a file copy) and reads what was generated from the
 * `bench_generated` row the copy carries. Templates of other keys are dropped when a new one is made.
 * `BENCH_INBOX_CACHE=off` generates every time and keeps nothing.
 */

const MIGRATIONS = resolve(ROOT, 'apps/server/src/db/migrations');

export const inboxCacheOn = () => process.env.BENCH_INBOX_CACHE !== 'off';

export const inboxTemplateName = (size: { tickets: number; messagesPerTicket: number }) => {
  const hash = createHash('sha1');
  hash.update(readFileSync(resolve(import.meta.dirname, 'generate.ts')));
  for (const file of readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file);
    hash.update(readFileSync(resolve(MIGRATIONS, file)));
  }
  hash.update(JSON.stringify(size));

  return `zelo_bench_inbox_${hash.digest('hex').slice(0, 12)}`;
};

const psql = (url: string, sql: string) =>
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql], { encoding: 'utf8' }).trim();

const databaseUrl = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;

  return url.toString();
};

export const templateExists = (baseUrl: string, name: string) =>
  psql(baseUrl, `select count(*) from pg_database where datname = '${name}'`) === '1';

/** a new database `name` copied from the template; answers its URL and what the template was generated with */
export const copyTemplate = (baseUrl: string, template: string, name: string) => {
  psql(baseUrl, `create database ${name} template ${template}`);
  const url = databaseUrl(baseUrl, name);
  const generated = JSON.parse(psql(url, 'select json from bench_generated')) as TGenerated & { generateMs: number };

  return { url, generated };
};

/**
 * Records what was generated in the database `name` (its server stopped, no connection open) and keeps a
 * copy of it as the template; older templates go.
 */
export const saveTemplate = (
  baseUrl: string,
  name: string,
  template: string,
  generated: TGenerated & { generateMs: number },
) => {
  const text = JSON.stringify(generated).replaceAll("'", "''");
  psql(
    databaseUrl(baseUrl, name),
    `create table bench_generated (json text); insert into bench_generated values ('${text}')`,
  );
  const stale = psql(
    baseUrl,
    `select datname from pg_database where datname like 'zelo\\_bench\\_inbox\\_%' and datname <> '${template}'`,
  )
    .split('\n')
    .filter(Boolean);
  for (const old of stale) psql(baseUrl, `drop database if exists ${old} with (force)`);
  psql(baseUrl, `create database ${template} template ${name}`);
};
