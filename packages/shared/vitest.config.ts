import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    reporters: ['default', 'json'],
    // .ci/run reads this report to count tests; a run may point it elsewhere with --outputFile.json=...
    outputFile: { json: '../../.test-results/shared.json' },
  },
});
