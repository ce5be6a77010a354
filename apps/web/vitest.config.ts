import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machine, where the files mostly wait
    // on module loading and timers; two halve the suite's time
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default', 'json'],
    // .ci/run reads this report to count tests
    outputFile: { json: '../../.test-results/web.json' },
  },
});
