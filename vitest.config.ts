import { defineConfig } from 'vitest/config';

// Everything that stores something runs once per storage engine; the rest once.
const perEngine = ['test/http/**/*.test.ts', 'test/process/**/*.test.ts', 'test/store/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'clients/typescript/test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: [...perEngine, 'test/sqlite/**/*.test.ts'],
          env: { TEST_ENGINE: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...perEngine, 'test/postgres/**/*.test.ts'],
          env: { TEST_ENGINE: 'postgres' },
          globalSetup: ['test/setup/postgres.ts'],
        },
      },
    ],
  },
});
