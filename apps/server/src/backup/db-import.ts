/**
 * Loads the database entries of an archive (db-export.ts's COPY text) into an empty schema at the archive's
 * migration level, in one transaction with `session_replication_role = replica` (no trigger runs and no foreign
 * key is checked while the rows of a consistent snapshot go in: the dashboard's rollup rows are restored as they
 * were, not counted again), then the sequences, then each table's rows counted against the manifest.
 * PostgreSQL streams each table through one `COPY … FROM STDIN` (pg-copy-streams); PGlite takes each ~8 MB entry
 * as one `COPY … FROM '/dev/blob'`. Setting session_replication_role needs a superuser, or on PostgreSQL 15 and
 * later `GRANT SET ON PARAMETER session_replication_role TO <role>`.
 */
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { TDatabase } from '../db/client';
import { columnList, quoteIdent } from './db-export';
import type { TManifest } from './manifest';

export type TTableSink = {
  /** one archive entry of `table`'s rows */
  write: (table: TManifest['tables'][number], body: AsyncIterable<Buffer>) => Promise<void>;
  /** sequences set, counts checked, committed; answers the tables' row counts found */
  finish: (manifest: TManifest) => Promise<void>;
  abort: () => Promise<void>;
};

const REPLICA_HINT =
  'restore loads rows with session_replication_role = replica: run it as a superuser, or GRANT SET ON PARAMETER session_replication_role to this role (PostgreSQL 15+)';

const collect = async (body: AsyncIterable<Buffer>) => {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
};

type TQuery = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

const finishLoad = async (query: TQuery, manifest: TManifest) => {
  for (const seq of manifest.sequences) {
    if (seq.value !== null)
      await query('select setval($1::regclass, $2::bigint, true)', [quoteIdent(seq.name), seq.value]);
  }
  const wrong: string[] = [];
  for (const table of manifest.tables) {
    const { rows } = await query(`select count(*)::int as n from ${quoteIdent(table.name)}`);
    const n = (rows[0] as { n: number }).n;
    if (n !== table.rows) wrong.push(`${table.name}: ${n} rows loaded, ${table.rows} in the archive`);
  }
  if (wrong.length > 0) throw new Error(`the rows loaded differ from the manifest:\n  ${wrong.join('\n  ')}`);
};

export const openTableSink = async (database: TDatabase): Promise<TTableSink> => {
  if (database.kind === 'pglite') {
    const pglite = database.pglite!;
    await pglite.query('begin');
    await pglite.query('set local session_replication_role = replica');
    const query: TQuery = (text, values) => pglite.query(text, values);

    return {
      write: async (table, body) => {
        const data = await collect(body);
        await pglite.query(`copy ${quoteIdent(table.name)} (${columnList(table.columns)}) from '/dev/blob'`, [], {
          blob: new Blob([data]),
        });
      },
      finish: async (manifest) => {
        await finishLoad(query, manifest);
        await pglite.query('commit');
      },
      abort: async () => {
        await pglite.query('rollback').catch(() => undefined);
      },
    };
  }
  const client: pg.PoolClient = await database.pool!.connect();
  await client.query('begin');
  try {
    await client.query('set local session_replication_role = replica');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    client.release();
    throw new Error(`${(err as Error).message}: ${REPLICA_HINT}`);
  }
  let current: { table: string; stream: ReturnType<typeof copyFrom> } | undefined;
  const endCurrent = async () => {
    if (!current) return;
    const { stream } = current;
    current = undefined;
    stream.end();
    await finished(stream);
  };

  return {
    write: async (table, body) => {
      if (current?.table !== table.name) {
        await endCurrent();
        const stream = client.query(
          copyFrom(`copy ${quoteIdent(table.name)} (${columnList(table.columns)}) from stdin`),
        );
        current = { table: table.name, stream };
      }
      const { stream } = current;
      for await (const part of body) if (!stream.write(part)) await once(stream, 'drain');
    },
    finish: async (manifest) => {
      try {
        await endCurrent();
        await finishLoad((text, values) => client.query(text, values), manifest);
        await client.query('commit');
      } finally {
        client.release();
      }
    },
    abort: async () => {
      current?.stream.destroy();
      await client.query('rollback').catch(() => undefined);
      client.release(true);
    },
  };
};
