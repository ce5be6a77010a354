import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'artifacts/**'],
    // builds the web app when needed and starts one server for the whole run (see support/global-setup.ts)
    globalSetup: ['./support/global-setup.ts'],
    // fails a test during which a page broke the Content Security Policy
    setupFiles: ['./support/csp-guard.ts'],
    // one browser at a time on a 2-core machine
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
    teardownTimeout: 10_000,
    reporters: ['default', 'json'],
    // .ci/run reads this report to count tests; a run may point it elsewhere with --outputFile.json=...
    outputFile: { json: '../.test-results/e2e.json' },
  },
});
