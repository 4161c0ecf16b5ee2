import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './build/precompress';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/** Packages every page needs (the entry imports them): one vendor chunk that stays cached across releases. */
const CORE_VENDOR =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;

/**
 * react-router 7's package exports point every condition at its development build (its dev
 * warnings on, remix-run/react-router#14102), so a production build would ship that. The build
 * takes the production build it publishes beside it; `vite` (dev) keeps the warnings.
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command }) => ({
  plugins: [react(), precompress()],
  resolve: {
    // @trialwear/contract and @trialwear/zone are consumed as TypeScript source (their "source" export condition).
    conditions: ['source', ...defaultClientConditions],
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/sim': apiTarget },
  },
  build: {
    outDir: 'dist',
    // Written for reading a stack trace on the server, not referenced by the scripts nor served.
    sourcemap: 'hidden',
    rollupOptions: {
      // The contract's modules only declare constants and zod schemas, the zone package's only
      // pure functions: a module none of whose exports a chunk uses is left out of it, so the entry
      // does not carry every schema (participants, devices, trials …) because the router imports
      // the contract's index.
      treeshake: {
        moduleSideEffects: (id, external) =>
          external || !/[\\/]packages[\\/](contract|zone)[\\/]src[\\/]/.test(id),
      },
      output: {
        // Only the core vendor packages get a chunk of their own. Mantine, forms, zod and the
        // tables are split by Rollup along the lazy pages that use them, so a page (the login
        // page first) loads the components it renders, not every component of the app.
        manualChunks(id) {
          if (CORE_VENDOR.test(id)) return 'react';
        },
      },
    },
  },
}));
