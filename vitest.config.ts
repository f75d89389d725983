import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every workspace: `npm run test:unit` runs them all, `--project server` one of them.
export default defineConfig({
  test: {
    // A file per core. Vitest's default keeps one core for itself (n - 1), which on a two-core machine
    // ran every file one after another; with two, the whole unit suite went from about 10 to 6.2 min
    // and the server tests on PostgreSQL and Redis from about 6 to 3.7 (each file has its own database).
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: { name: 'contract', environment: 'node', include: ['packages/contract/src/**/*.test.ts'] },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['apps/server/src/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Cheap password hashing (config.ts passwordHashCost): nearly every test makes users. The
          // OWASP default is pinned by config.test.ts.
          env: { PASSWORD_HASH_COST: 'test' },
          // Server tests share one PostgreSQL in CI; each file gets its own database.
          // Files share their worker's module cache: each file builds its own app, database and Redis
          // names (test/app.ts), and no server module keeps per-test state at module level. Isolated,
          // every file imported the whole server again, which took about as long as the tests.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
      {
        // The lint configuration's import boundaries, each shown a violation.
        test: { name: 'lint', environment: 'node', include: ['scripts/**/*.test.ts'], testTimeout: 60_000 },
      },
    ],
  },
});
