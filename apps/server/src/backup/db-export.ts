/**
 * The database's part of an archive: every table of the `public` schema in PostgreSQL's COPY text format (one
 * row a line, the columns named in the manifest; generated columns left out), cut into entries of about 8 MB at
 * row boundaries, plus the sequences' values and the migration level (drizzle's own table). The same format comes
 * out of both databases and goes back into both (db-import.ts), so an embedded Zelo restores onto PostgreSQL and
 * back, and an older archive is loaded at its own migration level and migrated forward.
 *
 * - PostgreSQL: one connection in a REPEATABLE READ, READ ONLY transaction (the snapshot pg_dump takes), each
 *   table streamed with `COPY … TO STDOUT` (pg-copy-streams); the server keeps writing meanwhile.
 * - PGlite: a data directory nothing else writes (the server's own while it is stopped, under its lock, or the
 *   copy a running server made: snapshot.ts), opened in this process; each table read by ranges of 1024 heap
 *   pages (`ctid` ranges, a TID range scan) with `COPY … TO '/dev/blob'`, so no table is held whole.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

export type TTableInfo = { name: string; columns: string[] };
export type TSequenceValue = { name: string; value: string | null };
export type TMigrationLevel = { count: number; when: string | null };

export type TDbSource = {
  kind: 'pglite' | 'postgres';
  tables: () => Promise<TTableInfo[]>;
  sequences: () => Promise<TSequenceValue[]>;
  migrations: () => Promise<TMigrationLevel>;
  /** the table's rows in COPY text format, in chunks that each end at a row's end */
  rows: (table: TTableInfo) => AsyncGenerator<Buffer>;
  close: () => Promise<void>;
};

export const CHUNK_BYTES = 8 * 1024 * 1024;
const PAGES_PER_READ = 1024;

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const columnList = (columns: string[]) => columns.map(quoteIdent).join(', ');

const TABLES_SQL = `
  select c.relname as name, json_agg(a.attname order by a.attnum) as columns
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
   where n.nspname = 'public' and c.relkind = 'r'
   group by c.relname
   order by c.relname`;
const SEQUENCES_SQL = `
  select sequencename as name, last_value::text as value
    from pg_sequences where schemaname = 'public' order by sequencename`;
const MIGRATIONS_SQL = `
  select count(*)::int as count, max(created_at)::text as "when" from drizzle.__drizzle_migrations`;

/** the rows counted in COPY text chunks (every row ends with a newline; newlines inside values are escaped) */
export const countRows = (chunk: Buffer) => {
  let n = 0;
  let at = chunk.indexOf(10);
  while (at !== -1) {
    n += 1;
    at = chunk.indexOf(10, at + 1);
  }

  return n;
};

/** re-cuts a byte stream of COPY text into chunks of about CHUNK_BYTES that end at a row's end */
export async function* rowChunks(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const chunk of source) {
    parts.push(chunk);
    held += chunk.length;
    if (held < CHUNK_BYTES) continue;
    const all = Buffer.concat(parts, held);
    const end = all.lastIndexOf(10) + 1;
    if (end === 0) {
      parts = [all];
      continue;
    }
    yield all.subarray(0, end);
    parts = end < all.length ? [all.subarray(end)] : [];
    held = all.length - end;
  }
  if (held > 0) yield Buffer.concat(parts, held);
}

export const postgresSource = async (connectionString: string): Promise<TDbSource> => {
  const { default: pgModule } = await import('pg');
  const client: pg.Client = new pgModule.Client({ connectionString, application_name: 'zelo-backup' });
  await client.connect();
  await client.query('begin isolation level repeatable read read only');

  return {
    kind: 'postgres',
    tables: async () => (await client.query(TABLES_SQL)).rows as TTableInfo[],
    sequences: async () => (await client.query(SEQUENCES_SQL)).rows as TSequenceValue[],
    migrations: async () => (await client.query(MIGRATIONS_SQL)).rows[0] as TMigrationLevel,
    rows: (table) =>
      rowChunks(client.query(copyTo(`copy ${quoteIdent(table.name)} (${columnList(table.columns)}) to stdout`))),
    close: async () => {
      await client.query('commit').catch(() => undefined);
      await client.end();
    },
  };
};

/** an open PGlite that nothing else writes; `release` runs after it closed (the lock, the copy's removal) */
export const pgliteSource = (pglite: PGlite, release: () => Promise<void> = async () => undefined): TDbSource => ({
  kind: 'pglite',
  tables: async () => (await pglite.query<TTableInfo>(TABLES_SQL)).rows,
  sequences: async () => (await pglite.query<TSequenceValue>(SEQUENCES_SQL)).rows,
  migrations: async () => (await pglite.query<TMigrationLevel>(MIGRATIONS_SQL)).rows[0] as TMigrationLevel,
  rows: async function* (table) {
    const name = quoteIdent(table.name);
    const { rows } = await pglite.query<{ pages: number }>(
      `select (pg_relation_size('public.${name.replaceAll("'", "''")}') / current_setting('block_size')::int)::int as pages`,
    );
    const pages = rows[0]?.pages ?? 0;
    const reads: string[] = [];
    if (pages <= PAGES_PER_READ) reads.push('true');
    else {
      for (let from = 0; from < pages; from += PAGES_PER_READ) {
        const to = from + PAGES_PER_READ;
        // the last range is open: a page added after the size was read is still taken
        reads.push(
          to >= pages ? `ctid >= '(${from},0)'::tid` : `ctid >= '(${from},0)'::tid and ctid < '(${to},0)'::tid`,
        );
      }
    }
    async function* blobs() {
      for (const where of reads) {
        const result = await pglite.query(
          `copy (select ${columnList(table.columns)} from ${name} where ${where}) to '/dev/blob'`,
        );
        if (result.blob && result.blob.size > 0) yield Buffer.from(await result.blob.arrayBuffer());
      }
    }
    yield* rowChunks(blobs());
  },
  close: async () => {
    await pglite.close();
    await release();
  },
});
