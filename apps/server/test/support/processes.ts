/*
 * The server's other entry points as real child processes on a test's
 * database: the admin CLI (one JSON line out) and the job worker.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './test-app.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Run TypeScript sources directly, resolving our packages from source like Vitest does. */
const TSX = ['--conditions=source', '--import', 'tsx'];

const envFor = (t: TestApp, extra: Record<string, string> = {}) => ({
  ...process.env,
  DATABASE_URL: t.ctx.config.DATABASE_URL!,
  DATA_DIR: t.dataDir,
  LOG_LEVEL: 'silent',
  ...extra,
});

export function runCli(t: TestApp, ...args: string[]) {
  const res = spawnSync(process.execPath, [...TSX, 'apps/server/src/cli/main.ts', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: envFor(t),
  });
  return { code: res.status, stdout: res.stdout.trim(), stderr: res.stderr.trim() };
}

export function startWorker(t: TestApp, env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [...TSX, 'apps/server/src/worker.ts'], {
    cwd: repoRoot,
    env: envFor(t, { LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  return { child, output: () => output };
}
