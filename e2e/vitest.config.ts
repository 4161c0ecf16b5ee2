import { defineConfig } from 'vitest/config';

// Browser journeys: a real server (npm start's entry, embedded PostgreSQL,
// demo seed) driven by headless Debian Chromium through playwright-core.
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    include: ['journeys/**/*.e2e.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server, one browser per file; files run one after another to keep CI steady on 2 cores.
    fileParallelism: false,
    // The files share the worker's modules (contract, simulators, playwright-core): loaded once,
    // not once per journey. No support module keeps state a journey could trip over.
    isolate: false,
  },
});
