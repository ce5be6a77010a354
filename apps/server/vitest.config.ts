import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that start their own server processes on a database of their own choosing, whatever the run's (two nodes
 * and failover on PostgreSQL, backup and restore between both, a crashed or single process embedded). The PGlite run (`npm test`) runs them; the
 * PostgreSQL run (`TEST_DATABASE_URL` set, `.ci/run`'s test:pg) would run them again unchanged — 210 s of the CI's
 * time — so it leaves them out.
 */
const SAME_ON_EVERY_DATABASE = [
  'test/backup-restore.test.ts',
  'test/cluster.test.ts',
  'test/failover.test.ts',
  'test/assignment-two-nodes.test.ts',
  'test/campaign-crash.test.ts',
  'test/single-process.test.ts',
];

/**
 * A test file reaches a database only through the harness (test/harness.ts: `startTestServer`, `openTestDatabase`)
 * or the helpers built on it, or one of its own (db/client). A file under src/ that names none of them — a pure unit test: the
 * list answers, the budgets, the Baileys driver on a memory store — runs the same on every database, so the
 * PostgreSQL run leaves it to the PGlite one (37 files: ~80 s of the CI's time in fork starts and imports).
 */
const REACHES_A_DATABASE =
  /harness|openTestDatabase|startTestServer|TEST_DATABASE_URL|db\/client|executeSql|fixtures'|inbox'|nodes'|pglite|postgres/i;
/** a helper of the test folder other than the fake WhatsApp (which keeps its state in memory) may reach one */
const TEST_HELPER = /from '(\.\.\/)+test\/(?!baileys-fake')/;
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
const databaseFree = () =>
  testFiles(resolve(import.meta.dirname, 'src'))
    .filter((file) => {
      const text = readFileSync(file, 'utf8');
      return !REACHES_A_DATABASE.test(text) && !TEST_HELPER.test(text);
    })
    .map((file) => relative(import.meta.dirname, file));

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.TEST_DATABASE_URL ? [...SAME_ON_EVERY_DATABASE, ...databaseFree()] : []),
    ],
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
