import { resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that start their own server processes on PostgreSQL whatever the run's database (two nodes, failover,
 * backup and restore between the embedded database and PostgreSQL). The PGlite run (`npm test`) runs them; the
 * PostgreSQL run (`TEST_DATABASE_URL` set, `.ci/run`'s test:pg) would run them again unchanged — 210 s of the CI's
 * time — so it leaves them out.
 */
const SAME_ON_EVERY_DATABASE = [
  'test/backup-restore.test.ts',
  'test/cluster.test.ts',
  'test/failover.test.ts',
  'test/assignment-two-nodes.test.ts',
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? SAME_ON_EVERY_DATABASE : [])],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', 'json'],
    // .ci/run reads this report to count tests; TEST_RESULTS_DIR puts it elsewhere (a step run beside another)
    outputFile: {
      json: resolve(process.env.TEST_RESULTS_DIR ?? resolve(import.meta.dirname, '../../.test-results'), 'server.json'),
    },
  },
});
