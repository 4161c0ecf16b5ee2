import { defineConfig } from 'vitest/config';

// Unit tests (pure rules) and integration tests (the real Fastify app on a real
// PostgreSQL). Browser journeys live in e2e/ with their own config.
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    projects: [
      {
        resolve: { conditions: ['source'] },
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
          ],
          environment: 'node',
        },
      },
      {
        resolve: { conditions: ['source'] },
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.int.test.ts'],
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file gets its own database cloned from a migrated template.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
