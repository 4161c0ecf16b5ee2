/*
 * Starts the real portal the way `npm start` does (built server + built SPA,
 * each rebuilt only when missing or stale; embedded PostgreSQL in a fresh temp
 * DATA_DIR, demo seed, mail to the outbox), waits for /api/health, and on teardown sends SIGTERM and checks
 * that the server and its PostgreSQL are gone.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildStale } from '../../scripts/build-state.mjs';
import { freePort } from '../../scripts/free-port.mjs';
import { startSmtpSink } from './smtp-sink.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** Where the test SMTP server drops every message it accepts (one .eml file each). */
    inboxDir: string;
    /** The test SMTP server (journeys that start a server of their own send their mail there too). */
    smtpUrl: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Every single-use secret the journeys were emailed (link query values named
 * token, t, code, state or key) that appears in the server's log. The log
 * must hold none: anyone who reads it could use them.
 */
function secretsInLog(inboxDir: string, log: string, wholeSuite: boolean): string[] {
  if (!fs.existsSync(inboxDir)) {
    if (wholeSuite) throw new Error('the journeys sent no e-mail: the log check would prove nothing');
    return [];
  }
  const secrets = new Set<string>();
  for (const file of fs.readdirSync(inboxDir)) {
    const text = fs
      .readFileSync(path.join(inboxDir, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    for (const m of text.matchAll(/[?&](?:token|t|code|state|key|verify)=([\w.~-]{12,})/g))
      secrets.add(m[1]!);
  }
  // The whole suite e-mails links (sign-up, reset, consent); a run of some journeys may e-mail none.
  if (secrets.size === 0 && wholeSuite)
    throw new Error('the journeys sent no emailed link: the log check would prove nothing');
  return [...secrets].filter((secret) => log.includes(secret));
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

function postgresRunningOn(port: number) {
  const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return ps.stdout.split('\n').some((l) => l.includes('postgres') && l.includes(`-p ${port}`));
}

export default async function setup(project: TestProject) {
  // Build what is missing or older than its sources (once per run of the journeys; npm start's own
  // check then finds it fresh). NODE_ENV is "test" inside Vitest: built as production, like npm start.
  buildStale();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-e2e-'));
  fs.chmodSync(dataDir, 0o755); // the embedded cluster's unprivileged user must reach it when we run as root
  const inboxDir = path.join(dataDir, 'smtp-inbox');
  const smtp = await startSmtpSink(inboxDir);
  const port = await freePort();
  const pgPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  // Exactly what npm start runs: its build check sees the fresh build and starts the server.
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      SEED_DEMO: 'true',
      // Every request is logged, so the teardown can check that no issued secret reached the log.
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@trialwear.test',
      // The journeys drive the simulators' control API (a test configuration).
      SIMULATOR_CONTROL: 'true',
      // The shared server's journeys test the legacy Fitbit flow; google-health.e2e runs its own
      // server with the default (Google Health API).
      FITBIT_API: 'legacy',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  await waitForHealth(baseUrl, child, () => output);
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('inboxDir', inboxDir);
  project.provide('smtpUrl', smtp.url);

  return async () => {
    try {
      child.kill('SIGTERM');
      const exited = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 30_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!exited) {
        child.kill('SIGKILL');
        throw new Error(`server did not stop on SIGTERM:\n${output.slice(-3000)}`);
      }
      if (child.exitCode !== 0)
        throw new Error(`server exited with ${child.exitCode} on SIGTERM:\n${output.slice(-3000)}`);
      if (postgresRunningOn(pgPort)) throw new Error('a postgres process was left behind after SIGTERM');
      if (!output.includes('stopped cleanly'))
        throw new Error(`no clean stop in the log:\n${output.slice(-3000)}`);
      // The vacuity check needs every journey in this run: not one journey, nor one shard of them
      // (`npm test` runs the journeys in shards; a shard may hold no journey that e-mails a link).
      const ran = project.vitest.state.getFiles().length;
      const wholeSuite =
        !project.vitest.config.shard && ran >= (await project.globTestFiles()).testFiles.length;
      const leaked = secretsInLog(inboxDir, output, wholeSuite);
      if (leaked.length)
        throw new Error(
          `${leaked.length} secret(s) from emailed links are in the server log, e.g. ${leaked[0]!.slice(0, 8)}…`,
        );
    } finally {
      child.stdout?.destroy();
      child.stderr?.destroy();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
}
