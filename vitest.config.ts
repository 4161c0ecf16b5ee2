import { configDefaults, defineConfig } from 'vitest/config';
import { LongFilesFirst } from './vitest.sequencer.js';

// Our workspace packages are imported from their TypeScript source ('source'
// export condition), never from a stale dist/: in the browser-like and in the
// node (SSR) resolution alike. No 'module' condition (Vite's default has it):
// Vitest hands these conditions to Node (--conditions) for the dependencies
// it leaves to Node, and 'module' then picks ES builds meant for bundlers
// (the AWS SDK's have extension-less imports Node cannot load).
const source = {
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
};

const googleHealthSimulator = 'packages/simulators/src/google-health/**/*.test.ts';

// Unit tests (pure rules), the Google Health simulator's suites and integration
// tests (the real Fastify app on a real PostgreSQL). Browser journeys live in
// e2e/ with their own config.
export default defineConfig({
  ...source,
  test: {
    // Workers are the run's, not a project's (Vitest reads maxWorkers from the root config only; its
    // default, CPUs − 1, ran one integration file at a time on 2 cores). Three on 2 cores: many
    // integration files mostly wait (real processes, a restarted database, pg-boss), and each file
    // has its own database, so they overlap without sharing anything.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    // A file shares its worker's modules with the files before it (no fresh module graph per file:
    // loading the server's graph ~170 times was half the CPU of these layers). vitest.setup.ts
    // resets the one module state a file may change. Vitest 3.2 needs minWorkers = maxWorkers with
    // isolate off, or it terminates a worker still running files (vitest-dev/vitest#8133).
    isolate: false,
    minWorkers: Number(process.env.TEST_WORKERS ?? 3),
    // Shuffled with the run's seed, the long integration files queued first (vitest.sequencer.ts).
    // (The seed: npm test passes its own; Vitest seeds only its own shuffling sequencer.)
    sequence: { sequencer: LongFilesFirst, seed: Date.now() % 1_000_000 },
    projects: [
      {
        ...source,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.mjs',
          ],
          exclude: [...configDefaults.exclude, googleHealthSimulator],
          environment: 'node',
          setupFiles: ['vitest.setup.ts'],
        },
      },
      {
        ...source,
        test: {
          // The Google Health simulator's suites: each drives whole simulated people over months of
          // data (30 s timeouts), so they keep `npm run test:unit` short; `npm test` runs them too.
          name: 'simulators',
          include: [googleHealthSimulator],
          environment: 'node',
          setupFiles: ['vitest.setup.ts'],
        },
      },
      {
        ...source,
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.int.test.ts'],
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          setupFiles: ['vitest.setup.ts'],
          // Hang guards, not budgets: a file normally ends in seconds, but CI runs on whatever
          // machine the change came from, beside the browser journeys (seen 2.5x slower than usual).
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file gets its own database cloned from a migrated template: files run side by side.
          fileParallelism: true,
        },
      },
    ],
  },
});
