import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, type TDb } from '../../db/client';

/**
 * What the operator's probes read from the database, across every company and only as counts by fixed words
 * (status, channel type, queue name): never a company, a name or a number.
 */

/** the `when` of the newest migration this build ships (drizzle's journal, beside the SQL files) */
export const shippedMigration = (() => {
  let cached: number | undefined;

  return () => {
    if (cached === undefined) {
      const journal = JSON.parse(readFileSync(resolve(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
        entries: { when: number }[];
      };
      cached = Math.max(0, ...journal.entries.map((e) => e.when));
    }

    return cached;
  };
})();

/** one round trip: the database answers, and the newest migration it has applied (0 when none) */
export const appliedMigration = async (db: TDb): Promise<number> => {
  const rows = (await db.execute(
    sql`select coalesce((select max(created_at) from drizzle.__drizzle_migrations), 0)::float8 as applied`,
  )) as unknown as { rows?: { applied: number }[] } | { applied: number }[];
  const list = Array.isArray(rows) ? rows : (rows.rows ?? []);

  return Number(list[0]?.applied ?? 0);
};

export type TStoreCounts = {
  connections: { provider: string; status: string; count: number }[];
  deliveries: { status: string; count: number }[];
  integrationPending: number;
  jobs: { queue: string; state: string; count: number }[];
};

const rowsOf = <T>(result: unknown): T[] =>
  (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];

/** the counts /metrics shows for the whole installation (each node reads the same ones) */
export const storeCounts = async (db: TDb): Promise<TStoreCounts> => {
  const [connections, deliveries, integration, hasBoss] = await Promise.all([
    db.execute(sql`select provider, status, count(*)::int as count from whatsapps group by 1, 2`),
    db.execute(sql`select status, count(*)::int as count from inbound_deliveries group by 1`),
    db.execute(sql`select count(*)::int as count from integration_deliveries where status = 'pending'`),
    db.execute(sql`select to_regclass('pgboss.job') is not null as present`),
  ]);
  const boss = rowsOf<{ present: boolean }>(hasBoss)[0]?.present
    ? rowsOf<{ queue: string; state: string; count: number }>(
        await db.execute(
          sql`select name as queue, state::text as state, count(*)::int as count from pgboss.job
              where state in ('created', 'retry', 'active') group by 1, 2`,
        ),
      )
    : [];

  return {
    connections: rowsOf(connections),
    deliveries: rowsOf(deliveries),
    integrationPending: rowsOf<{ count: number }>(integration)[0]?.count ?? 0,
    jobs: boss,
  };
};
