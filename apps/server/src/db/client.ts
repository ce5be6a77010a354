import { resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import * as schema from './schema/index';

// The drivers are imported on use: a PostgreSQL server never loads PGlite (its WASM build included),
// and a PGlite one never loads pg.

export type TSchema = typeof schema;
export type TDb = PgDatabase<PgQueryResultHKT, TSchema>;
export type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];
/** a database handle or an open transaction: repositories accept either */
export type TDbOrTx = TDb | TTx;

/** Runs raw SQL with positional parameters; used by pg-boss and by tests. */
export type TSqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type TDatabase = {
  kind: 'pglite' | 'postgres';
  db: TDb;
  executeSql: TSqlExecutor;
  pglite?: PGlite;
  pool?: pg.Pool;
  connectionString?: string;
  close: () => Promise<void>;
};

export const MIGRATIONS_FOLDER = resolve(import.meta.dirname, 'migrations');

const drizzleOptions = { schema, casing: 'snake_case' as const };

/**
 * The extensions the migrations create (pg_trgm: the contact search's indexes, migration 0025), for every PGlite
 * that opens a Zelo database: a data directory whose indexes use one cannot be written without it.
 */
export const pgliteExtensions = async () => ({
  pg_trgm: (await import('@electric-sql/pglite/contrib/pg_trgm')).pg_trgm,
});

export const openPglite = async (opts: { dataDir?: string; loadDataDir?: Blob | File }): Promise<TDatabase> => {
  const [{ PGlite }, { drizzle: drizzlePglite }, extensions] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    pgliteExtensions(),
  ]);
  const pglite = await PGlite.create({ dataDir: opts.dataDir, loadDataDir: opts.loadDataDir, extensions });
  const db = drizzlePglite({ client: pglite, ...drizzleOptions }) as unknown as TDb;

  return {
    kind: 'pglite',
    db,
    pglite,
    executeSql: async (text, values) => {
      if (!values || values.length === 0) {
        // parameterless scripts may hold several statements; exec() answers one result per statement
        const results = await pglite.exec(text);

        return { rows: results.at(-1)?.rows ?? [] };
      }

      return pglite.query(text, values);
    },
    close: () => pglite.close(),
  };
};

export const openPostgres = async (connectionString: string, max = 10): Promise<TDatabase> => {
  const [{ default: pgModule }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  const pool = new pgModule.Pool({ connectionString, max });
  pool.on('error', () => {
    // idle client errors (e.g. the server restarting) must not crash the process
  });
  const db = drizzlePg({ client: pool, ...drizzleOptions }) as unknown as TDb;

  return {
    kind: 'postgres',
    db,
    pool,
    connectionString,
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    close: () => pool.end(),
  };
};

/**
 * The schema migrations, then `after` (the data steps that need the server's configuration, e.g. sealing
 * rows written before secrets were sealed: db/seal-legacy-secrets.ts), on PostgreSQL under the same lock.
 */
export const runMigrations = async (database: TDatabase, after?: (db: TDb) => Promise<unknown>) => {
  if (database.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await after?.(database.db);
    return;
  }
  // several nodes may start at once: one migrates, the others wait on the advisory lock
  const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock(72431)');
    await migratePg(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await after?.(database.db);
  } finally {
    await client.query('select pg_advisory_unlock(72431)').catch(() => undefined);
    client.release();
  }
};

export const openDatabase = async (config: { databaseUrl?: string; dataDir: string }) =>
  config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite({ dataDir: resolve(config.dataDir, 'db') });
