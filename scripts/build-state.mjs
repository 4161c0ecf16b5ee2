// Decides whether the server or web build is missing or older than its sources,
// so `npm start`, `npm run cli` and the browser journeys' setup build only what they need.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each build: the file it writes last, and the sources (relative to the root) it is built from. */
export const builds = {
  server: {
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', 'packages/zone/src', 'packages/contract/src', 'packages/simulators/src'],
  },
  web: {
    output: 'apps/web/dist/index.html',
    sources: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/build',
      'packages/zone/src',
      'packages/contract/src',
    ],
  },
};

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  if (!fs.statSync(dir).isDirectory()) return fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.endsWith('.tsbuildinfo'))
      continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** True when `output` is missing or a file under one of `sources` is newer (paths relative to `base`). */
export function isStale(output, sources, base = root) {
  const out = path.join(base, output);
  if (!fs.existsSync(out)) return true;
  const built = fs.statSync(out).mtimeMs;
  return sources.some((s) => newestMtime(path.join(base, s)) > built);
}

/** The names of the builds (of `builds`) that are missing or stale, server first. */
export function staleBuilds(base = root) {
  return Object.entries(builds)
    .filter(([, b]) => isStale(b.output, b.sources, base))
    .map(([name]) => name);
}

/**
 * tsc -b leaves an unchanged output file alone: mark the server build as done now,
 * or its sources stay newer and every later check would build again.
 */
export function markServerBuilt() {
  const out = path.join(root, builds.server.output);
  fs.utimesSync(out, new Date(), new Date());
}

function run(cmd, args) {
  // Build output goes to stderr: the CLI's stdout must stay one line of JSON.
  const res = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

export function ensureServerBuilt() {
  if (isStale(builds.server.output, builds.server.sources)) {
    console.error('[trialwear] building the server…');
    run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/server']);
    markServerBuilt();
  }
}

export function ensureWebBuilt() {
  if (isStale(builds.web.output, builds.web.sources)) {
    console.error('[trialwear] building the web app…');
    run('npm', ['run', 'build', '-w', '@trialwear/web']);
  }
}

/**
 * Builds what is missing or stale, as production (like npm start), with the
 * build's output on `stdio`'s choice. For the test runs: `npm test` before
 * both suites start (the integration tests then spawn the built server, the
 * journeys' setup finds it fresh), the journeys' setup when run alone.
 */
export function buildStale({ stdio = 'inherit' } = {}) {
  for (const name of staleBuilds()) {
    const build = spawnSync('npm', ['run', `build:${name}`], {
      cwd: root,
      stdio,
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (build.status !== 0) throw new Error(`build:${name} failed`);
    if (name === 'server') markServerBuilt();
  }
}
