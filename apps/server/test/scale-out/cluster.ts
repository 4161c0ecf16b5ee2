/*
 * The scale-out cluster (issue #15) the tests of this folder share: three
 * servers (`main.ts`) and one `npm run worker` (`worker.ts`) started as child
 * processes on one fresh database of the test cluster, each with its own
 * DATA_DIR as separate machines would have, sharing only DATABASE_URL and the
 * secrets printed by `npm run cli -- gen-secrets`. Server A's address is
 * everybody's PUBLIC_URL (the load balancer's address: emailed links,
 * provider callbacks, and the provider simulator the processes reach).
 * Server C runs with another ENCRYPTION_KEY: the wrong key, then the new key
 * of a rotation. Plus the small process helpers the tests use.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { freePort } from '../../../../scripts/free-port.mjs';
import { APP_ROLE, ensureRoles, OWNER_ROLE } from '../../src/db/roles.js';
import { asRole } from '../support/global-setup.js';
import {
  repoRoot,
  runCliWithEnv,
  serverArgv,
  startServer,
  startWorkerWithEnv,
} from '../support/processes.js';
import { until as waitUntil } from '../support/until.js';

/** Three servers starting at once (compiling their TypeScript when the build is stale) on a 2-core machine shared with other work. */
export const SLOW_START = { timeoutMs: 180_000 };

export type Server = Awaited<ReturnType<typeof startServer>>;
export type Worker = ReturnType<typeof startWorkerWithEnv>;

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** support/until.ts's wait, a minute by default: a cluster's processes start and stop slowly. */
export const until = (check: () => Promise<boolean> | boolean, what: string | (() => string), ms = 60_000) =>
  waitUntil(check, what, ms);

/** Distinct free ports (the OS could hand the same one out twice in a row). */
async function freePorts(n: number) {
  const ports = new Set<number>();
  while (ports.size < n) ports.add((await freePort()) as number);
  return [...ports];
}

/** A process run to its end: exit code and everything it printed. */
export function runToEnd(entry: 'main' | 'worker', env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, serverArgv(entry), {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => {
      output += d;
    });
    child.stderr!.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function stop(p: { child: import('node:child_process').ChildProcess } | undefined) {
  if (!p || p.child.exitCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (p.child.exitCode === null) p.child.kill('SIGKILL');
}

export interface Cluster {
  database: string;
  appUrl: string;
  /** The application role's connection to the cluster's database. */
  db: pg.Client;
  secrets: { SESSION_SECRET: string; ENCRYPTION_KEY: string };
  /** Server C's key: another key than A's and B's (the wrong one, then the rotation's new one). */
  otherKey: string;
  /** The environment every process shares (DATABASE_URL, secrets, PUBLIC_URL, …). */
  env: Record<string, string>;
  a: Server;
  b: Server;
  c: Server;
  worker: Worker;
  startedTogether: Server[];
  /** A fresh DATA_DIR (removed by stopCluster). */
  dataDir: () => string;
  dirs: string[];
}

/**
 * Starts the cluster into `cl` (filled as it goes, so that stopCluster undoes
 * what a failed start left): three servers at once on an empty database, then
 * the worker.
 */
export async function startCluster(cl: Partial<Cluster>): Promise<void> {
  const adminUrl = inject('adminDatabaseUrl');
  const passwords = inject('rolePasswords');
  const database = `tw_test_scale_${randomBytes(4).toString('hex')}`;
  const dbUrl = withDatabase(adminUrl, database);
  const appUrl = asRole(dbUrl, APP_ROLE, passwords.app);
  const ownerUrl = asRole(dbUrl, OWNER_ROLE, passwords.owner);
  const dirs: string[] = [];
  const dataDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-scale-'));
    dirs.push(d);
    return d;
  };
  const otherKey = randomBytes(32).toString('base64');
  Object.assign(cl, { database, appUrl, otherKey, dataDir, dirs });

  // An empty database with the two roles, as an operator would prepare it (SECURITY.md).
  await ensureRoles((name) => withDatabase(adminUrl, name), database, passwords);
  const db = new pg.Client({ connectionString: appUrl });
  cl.db = db;

  const gen = await runCliWithEnv({ ...process.env }, 'gen-secrets');
  expect(gen.code).toBe(0);
  const printed = JSON.parse(gen.stdout);
  expect(printed).toMatchObject({ ok: true, command: 'gen-secrets' });
  expect(Buffer.from(printed.ENCRYPTION_KEY, 'base64')).toHaveLength(32);
  expect(printed.SESSION_SECRET.length).toBeGreaterThanOrEqual(40);
  const secrets = { SESSION_SECRET: printed.SESSION_SECRET, ENCRYPTION_KEY: printed.ENCRYPTION_KEY };

  const [portA, portB, portC] = await freePorts(3);
  const publicUrl = `http://127.0.0.1:${portA}`;
  const env = {
    DATABASE_URL: appUrl,
    DATABASE_OWNER_URL: ownerUrl,
    ...secrets,
    PUBLIC_URL: publicUrl,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    // The demo seed too: three servers starting at once on an empty database seed it once.
    SEED_DEMO: 'true',
    // Every server runs the job workers too (the default), beside the worker process.
    WORKERS: 'true',
  };
  // Three servers at once on the empty database.
  const startedTogether = await Promise.all([
    startServer({ ...env, PORT: String(portA), DATA_DIR: dataDir() }, SLOW_START),
    startServer({ ...env, PORT: String(portB), DATA_DIR: dataDir() }, SLOW_START),
    startServer({ ...env, PORT: String(portC), DATA_DIR: dataDir(), ENCRYPTION_KEY: otherKey }, SLOW_START),
  ]);
  const [a, b, c] = startedTogether as [Server, Server, Server];
  const worker = startWorkerWithEnv({ ...process.env, ...env, LOG_LEVEL: 'info', DATA_DIR: dataDir() });
  cl.worker = worker;
  Object.assign(cl, { secrets, env, a, b, c, startedTogether });
  await db.connect();
  await until(() => worker.output().includes('is running jobs'), 'the worker', SLOW_START.timeoutMs);
}

export async function stopCluster(cl: Partial<Cluster>) {
  const adminUrl = inject('adminDatabaseUrl');
  await Promise.all([stop(cl.a), stop(cl.b), stop(cl.c), stop(cl.worker)]);
  await cl.db?.end().catch(() => {});
  if (!cl.database) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${cl.database} WITH (FORCE)`);
  await admin.end();
  for (const d of cl.dirs ?? []) fs.rmSync(d, { recursive: true, force: true });
}
