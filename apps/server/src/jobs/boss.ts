import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { TDatabase } from '../db/client';
import { queryName } from '../lib/logger';
import { NO_METRICS, type TMetrics } from '../lib/metrics';

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
  /** how the workers fetch: jobs per fetch, polling, and how many of a fetch run at once (default 1, 2 s, 1) */
  work?: { batchSize?: number; pollingIntervalSeconds?: number; concurrency?: number };
};

/** a job to add: its id (a uuid) makes adding it twice add it once */
export type TJobInsert = { id: string; data: object; startAfter?: Date; retryLimit?: number; expireInSeconds?: number };

export type TJobs = {
  boss: PgBoss;
  send: (name: string, data: object, options?: PgBoss.SendOptions) => Promise<string | null>;
  /** adds many jobs in one statement; a job whose id exists already is not added again */
  insert: (name: string, jobs: TJobInsert[]) => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * What pg-boss keeps of a failed job (its `output`, stored in the database): the error's type, code and
 * query name, never its message or its query's parameters (a failed query's message repeats them). The
 * failure itself goes to the log through the logger's error serializer.
 */
export const jobFailure = (err: unknown) => {
  const e = (err ?? {}) as {
    constructor?: { name?: string };
    code?: unknown;
    query?: unknown;
    cause?: { code?: unknown };
  };
  const code = e.code ?? e.cause?.code;
  const parts = [e.constructor?.name ?? 'Error', typeof code === 'string' ? code : '', queryName(e.query) ?? ''];

  return new Error(`job failed: ${parts.filter(Boolean).join(' ')}`);
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

export const startJobs = async (
  database: TDatabase,
  definitions: TJobDefinition[],
  log: Logger,
  metrics: TMetrics = NO_METRICS,
): Promise<TJobs> => {
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: pgliteBossAdapter(database.pglite!), schema: 'pgboss', supervise: true, schedule: true })
      : new PgBoss({ connectionString: database.connectionString!, schema: 'pgboss', max: 4 });
  boss.on('error', (err) => log.error({ err }, 'job system error'));
  await boss.start();
  for (const def of definitions) {
    await ensureQueue(boss, def.name);
    const { batchSize = 1, pollingIntervalSeconds = 2, concurrency = 1 } = def.work ?? {};
    await boss.work(def.name, { pollingIntervalSeconds, batchSize }, async (jobs) => {
      // `concurrency` runners share the fetched jobs; a failure fails the whole fetch (pg-boss retries it)
      let next = 0;
      const runner = async () => {
        while (next < jobs.length) await def.handler(jobs[next++]!.data);
      };
      try {
        await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, runner));
      } catch (err) {
        log.warn({ err, job: def.name }, 'job failed');
        metrics.jobFailed(def.name);
        throw jobFailure(err);
      }
    });
    // periodic work is a schedule, which pg-boss runs once across every node
    if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'UTC', singletonKey: def.name });
  }

  return {
    boss,
    send: (name, data, options) => boss.send(name, data, options ?? {}),
    insert: async (name, jobs) => {
      for (let i = 0; i < jobs.length; i += 1000) {
        await boss.insert(jobs.slice(i, i + 1000).map((job) => ({ ...job, name })));
      }
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5000 }),
  };
};
