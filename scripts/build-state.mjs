// Decides whether the server or web build is missing or older than its sources,
// so `npm start` and `npm run cli` build only what they need.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

function isStale(output, sources) {
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  return sources.some((s) => newestMtime(path.join(root, s)) > built);
}

function run(cmd, args) {
  // Build output goes to stderr: the CLI's stdout must stay one line of JSON.
  const res = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

export function ensureServerBuilt() {
  const out = path.join(root, 'apps/server/dist/main.js');
  if (isStale(out, ['apps/server/src', 'packages/contract/src', 'packages/simulators/src'])) {
    console.error('[trialwear] building the server…');
    run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/server']);
    fs.utimesSync(out, new Date(), new Date());
  }
}

export function ensureWebBuilt() {
  const out = path.join(root, 'apps/web/dist/index.html');
  if (
    isStale(out, [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/build',
      'packages/contract/src',
    ])
  ) {
    console.error('[trialwear] building the web app…');
    run('npm', ['run', 'build', '-w', '@trialwear/web']);
  }
}
