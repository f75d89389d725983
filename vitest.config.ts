import { defineConfig } from 'vitest/config';

// One runner for every workspace: `npm run test:unit` runs them all, `--project server` one of them.
export default defineConfig({
  test: {
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
          // Server tests share one PostgreSQL in CI; each file gets its own database.
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
