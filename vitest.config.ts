import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['probe/**/*.test.ts', 'server/**/*.test.ts', 'db/**/*.test.ts', 'tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['node_modules/**', 'tests/e2e/**', 'dist/**'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 3,
  },
});
