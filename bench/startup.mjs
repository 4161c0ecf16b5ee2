// Measures `npm start`'s second start: with the server and web app built and
// the database initialised, how long until /api/health answers 200.
// Usage: npm run build && node bench/startup.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-start-'));
fs.chmodSync(dataDir, 0o755); // reachable by the cluster's user when run as root
const port = 3900 + Math.floor(Math.random() * 90);
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  EMBEDDED_PG_PORT: String(port + 1000),
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
};

async function startOnce(label) {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const collect = (c) => {
    log += c;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {}
    if (performance.now() - t0 > 120_000 || child.exitCode !== null)
      throw new Error(`did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - t0;
  console.log(`${label}: healthy after ${(ms / 1000).toFixed(2)} s`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return ms;
}

try {
  await startOnce('first start (initdb, migrations, demo seed)');
  const second = await startOnce('second start (built, initialised)');
  console.log(`budget 10 s: ${second < 10_000 ? 'met' : 'MISSED'}`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
