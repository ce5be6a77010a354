import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    reporters: ['default', 'json'],
    // .ci/run reads this report to count tests
    outputFile: { json: '../../.test-results/web.json' },
  },
});
