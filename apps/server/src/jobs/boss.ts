import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { TDatabase } from '../db/client';

/**
 * pg-boss speaks to PostgreSQL through its own pool, and to PGlite through this adapter: parameterless
 * scripts (its schema and maintenance, several statements with BEGIN/COMMIT) go to exec(), and a
 * failed script is rolled back so the single PGlite connection is never left inside a transaction.
 */
export const pgliteBossAdapter = (pglite: PGlite) => ({
  executeSql: async (text: string, values?: unknown[]) => {
    if (values && values.length > 0) return pglite.query(text, values);
    try {
      const results = await pglite.exec(text);

      return { rows: results.at(-1)?.rows ?? [] };
    } catch (err) {
      if (/\bBEGIN\b/i.test(text)) await pglite.exec('ROLLBACK').catch(() => undefined);
      throw err;
    }
  },
});

export type TJobDefinition = {
  name: string;
  /** cron in UTC for periodic work; absent for on-demand jobs */
  cron?: string;
  handler: (data: unknown) => Promise<void>;
};

export type TJobs = {
  boss: PgBoss;
  send: (name: string, data: object, options?: PgBoss.SendOptions) => Promise<string | null>;
  stop: () => Promise<void>;
};

const isDeadlock = (err: unknown) => (err as { code?: string }).code === '40P01';

/** nodes starting together may race to create the same queue: PostgreSQL picks a deadlock victim, which retries */
const ensureQueue = async (boss: PgBoss, name: string) => {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(name)) return;
    try {
      await boss.createQueue(name);

      return;
    } catch (err) {
      if (!isDeadlock(err) || attempt >= 5) throw err;
      await new Promise((resume) => setTimeout(resume, 50 + Math.random() * 200));
    }
  }
};

export const startJobs = async (database: TDatabase, definitions: TJobDefinition[], log: Logger): Promise<TJobs> => {
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: pgliteBossAdapter(database.pglite!), schema: 'pgboss', supervise: true, schedule: true })
      : new PgBoss({ connectionString: database.connectionString!, schema: 'pgboss', max: 4 });
  boss.on('error', (err) => log.error({ err }, 'job system error'));
  await boss.start();
  for (const def of definitions) {
    await ensureQueue(boss, def.name);
    await boss.work(def.name, { pollingIntervalSeconds: 2 }, async (jobs) => {
      for (const job of jobs) await def.handler(job.data);
    });
    // periodic work is a schedule, which pg-boss runs once across every node
    if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'UTC', singletonKey: def.name });
  }

  return {
    boss,
    send: (name, data, options) => boss.send(name, data, options ?? {}),
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5000 }),
  };
};
