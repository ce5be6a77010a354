import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.{test,spec}.ts'],
    exclude: ['**/node_modules/**', 'artifacts/**'],
    // the runner must run (and report 0 tests) before the first spec exists
    passWithNoTests: true,
    // one browser at a time on a 2-core machine
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', 'json'],
    // .ci/run reads this report to count tests; a run may point it elsewhere with --outputFile.json=...
    outputFile: { json: '../.test-results/e2e.json' },
  },
});
