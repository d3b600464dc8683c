import { defineConfig } from 'vitest/config';

// One run for unit, integration and browser tests. `npm test` starts private Postgres and
// Redis first and passes their URLs in the environment (see infra/src/test-run.ts).
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'infra/src/**/*.test.ts',
      'web/src/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'bench/**'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // vitest's default of 1 s is shorter than a render, a job or a round trip can take on a
    // loaded 2-core CI machine; a poll that succeeds still returns at once.
    expect: { poll: { timeout: 10_000 } },
  },
});
