/*
 * Scale-out (issue #15): several servers and a worker on one PostgreSQL
 * behave as one. Real processes throughout — three servers (`main.ts`) and
 * one `npm run worker` (`worker.ts`) started as child processes on one fresh
 * database of the test cluster, each with its own DATA_DIR as separate
 * machines would have, sharing only DATABASE_URL and the secrets printed by
 * `npm run cli -- gen-secrets`. Server A's address is everybody's PUBLIC_URL
 * (the load balancer's address: emailed links, provider callbacks, and the
 * provider simulator the processes reach). Server C runs with another
 * ENCRYPTION_KEY: the wrong key, then the new key of a rotation.
 *
 * The processes are started once (three at once, on the empty database) and
 * shared by the tests, which run in order.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEVICE_ERROR_LABELS, LINK_MESSAGES, SFA_MESSAGES } from '@trialwear/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../../../scripts/free-port.mjs';
import { knownMigrations } from '../../src/db/migrate.js';
import { APP_ROLE, ensureRoles, OWNER_ROLE } from '../../src/db/roles.js';
import { MAX_FAILED_ATTEMPTS } from '../../src/features/auth/lockout.js';
import { startQueue } from '../../src/queue/boss.js';
import { keyId } from '../../src/security/encryption.js';
import { DEMO_PASSWORD } from '../../src/seed/demo.js';
import { throughAuthorizePage } from '../support/consent.js';
import { asRole } from '../support/global-setup.js';
import {
  HttpSession,
  repoRoot,
  runCliWithEnv,
  startServer,
  startWorkerWithEnv,
} from '../support/processes.js';

/** Three servers compiling their TypeScript at once on a 2-core machine shared with other work. */
const SLOW_START = { timeoutMs: 180_000 };

type Server = Awaited<ReturnType<typeof startServer>>;
type Worker = ReturnType<typeof startWorkerWithEnv>;

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Distinct free ports (the OS could hand the same one out twice in a row). */
async function freePorts(n: number) {
  const ports = new Set<number>();
  while (ports.size < n) ports.add((await freePort()) as number);
  return [...ports];
}

/** A process run to its end: exit code and everything it printed. */
function runToEnd(entry: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
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

describe('several servers and a worker on one PostgreSQL behave as one', () => {
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
  let secrets: { SESSION_SECRET: string; ENCRYPTION_KEY: string };
  /** Server C's key: another key than A's and B's (the wrong one, then the rotation's new one). */
  const otherKey = randomBytes(32).toString('base64');
  let env: Record<string, string>;
  let a: Server;
  let b: Server;
  let c: Server;
  let worker: Worker;
  let startedTogether: Server[];
  let db: pg.Client;

  beforeAll(async () => {
    // An empty database with the two roles, as an operator would prepare it (SECURITY.md).
    await ensureRoles((name) => withDatabase(adminUrl, name), database, passwords);
    db = new pg.Client({ connectionString: appUrl });

    const gen = await runCliWithEnv({ ...process.env }, 'gen-secrets');
    expect(gen.code).toBe(0);
    const printed = JSON.parse(gen.stdout);
    expect(printed).toMatchObject({ ok: true, command: 'gen-secrets' });
    expect(Buffer.from(printed.ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(printed.SESSION_SECRET.length).toBeGreaterThanOrEqual(40);
    secrets = { SESSION_SECRET: printed.SESSION_SECRET, ENCRYPTION_KEY: printed.ENCRYPTION_KEY };

    const [portA, portB, portC] = await freePorts(3);
    const publicUrl = `http://127.0.0.1:${portA}`;
    env = {
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
    startedTogether = await Promise.all([
      startServer({ ...env, PORT: String(portA), DATA_DIR: dataDir() }, SLOW_START),
      startServer({ ...env, PORT: String(portB), DATA_DIR: dataDir() }, SLOW_START),
      startServer({ ...env, PORT: String(portC), DATA_DIR: dataDir(), ENCRYPTION_KEY: otherKey }, SLOW_START),
    ]);
    [a, b, c] = startedTogether as [Server, Server, Server];
    worker = startWorkerWithEnv({ ...process.env, ...env, LOG_LEVEL: 'info', DATA_DIR: dataDir() });
    await db.connect();
    await until(() => worker.output().includes('is running jobs'), 'the worker', SLOW_START.timeoutMs);
  }, 400_000);

  afterAll(async () => {
    await Promise.all([stop(a), stop(b), stop(c), stop(worker)]);
    await db?.end().catch(() => {});
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }, 60_000);

  it('three servers started at once apply the migrations once, seed the demo once, and are all ready', async () => {
    const known = knownMigrations();
    const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(known);
    // Exactly one of the three applied them (the others waited on the lock and found nothing to do).
    const applied = startedTogether.filter((s) => s.output().includes('Applied migrations:'));
    expect(applied).toHaveLength(1);
    expect(applied[0]!.output()).toContain(`Applied migrations: ${known.join(', ')}`);
    expect(startedTogether.filter((s) => s.output().includes('Seeded the demo team'))).toHaveLength(1);
    expect((await db.query("SELECT count(*)::int AS n FROM users WHERE username = 'admin'")).rows[0].n).toBe(
      1,
    );
    for (const s of startedTogether) {
      const ready = await fetch(`${s.base}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        database: 'up',
        migrations: { expected: known.at(-1), applied: known.at(-1), pending: 0, unknown: 0 },
      });
      const health = await fetch(`${s.base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'up', queue: 'up' });
    }
  });

  let admin: HttpSession;
  let trialId: number;

  it('a session and CSRF token made on one server work on the other', async () => {
    // Signed in on A, with the CSRF token A gave for the sign-in (HttpSession fetches it first) ...
    admin = new HttpSession(a.base);
    await admin.login('admin', DEMO_PASSWORD);
    // ... then the same cookies and token on B: read, and a write that needs the CSRF token.
    const onB = admin.via(b.base);
    expect(await (await onB.get('/api/auth/user')).json()).toMatchObject({
      message: 'Authorized',
      user: { userName: 'admin' },
    });
    const created = await onB.post('/api/userTrials', { trialNumber: '15', trialName: 'Scale out' });
    expect(created.status).toBe(200);
    trialId = ((await created.json()) as { trialId: number }).trialId;
    // And back on A, the trial B created.
    const trials = (await (await admin.get('/api/userTrials')).json()) as Array<{ trialId: number }>;
    expect(trials.map((t) => t.trialId)).toContain(trialId);
  });

  let participantId: number;
  let deviceId: number;

  it('a provider token stored through one server is used through the other; one provider budget for both', async () => {
    const onB = admin.via(b.base);
    participantId = (
      (await (
        await onB.post('/api/trialParticipants', { trialId, email: 'wearer@scale.example' })
      ).json()) as {
        participantId: number;
      }
    ).participantId;
    const req = await admin.post(`/api/participantDevices/${participantId}/fitbit/consentRequest`, {});
    expect(req.status).toBe(200);
    const { link } = (await req.json()) as { link: string };
    // The authorize URL from B, the callback (code exchange, tokens stored encrypted) through A.
    const { callback } = await throughAuthorizePage(b.base, 'fitbit', link);
    const done = await new HttpSession(a.base).post('/api/fitbit-callback', {
      authCode: callback.searchParams.get('code'),
      participantId: callback.searchParams.get('state'),
    });
    expect(done.status).toBe(200);
    const stored = await db.query(
      `SELECT t.participant_device_id AS id, t.access_token_enc AS enc FROM provider_tokens t
       JOIN participant_devices d ON d.id = t.participant_device_id WHERE d.participant_id = $1`,
      [participantId],
    );
    deviceId = stored.rows[0].id;
    expect(stored.rows[0].enc.startsWith(`v2.${keyId(Buffer.from(secrets.ENCRYPTION_KEY, 'base64'))}.`)).toBe(
      true,
    );

    const budget = async () =>
      (
        await db.query('SELECT budget_calls FROM device_sync_state WHERE participant_device_id = $1', [
          deviceId,
        ])
      ).rows[0]?.budget_calls ?? 0;
    const before = await budget();
    for (const s of [onB, admin]) {
      const res = await s.get(`/api/participantDevices/${participantId}/fitbit`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(THE_DEVICES);
    }
    // Both servers counted on the device's one budget in PostgreSQL.
    expect(await budget()).toBe(before + 2);
    // Spent (here by hand, as the sync and other servers would): both servers show the card's label.
    await db.query(
      `UPDATE device_sync_state SET budget_calls = 150, budget_hour = date_trunc('hour', now())
       WHERE participant_device_id = $1`,
      [deviceId],
    );
    for (const s of [admin, onB]) {
      const res = await s.get(`/api/participantDevices/${participantId}/fitbit`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([
        expect.objectContaining({ hasError: true, errorType: DEVICE_ERROR_LABELS.rateLimited }),
      ]);
    }
    await db.query('UPDATE device_sync_state SET budget_calls = 0 WHERE participant_device_id = $1', [
      deviceId,
    ]);
  });

  it('a wrong key gives the device card its error label, never a 500; the rotation re-seals and loses nothing', async () => {
    const onC = admin.via(c.base);
    const wrong = await onC.get(`/api/participantDevices/${participantId}/fitbit`);
    expect(wrong.status).toBe(200);
    expect(await wrong.json()).toEqual([
      expect.objectContaining({
        device: 'Error',
        hasError: true,
        errorType: DEVICE_ERROR_LABELS.authCheckFailed,
      }),
    ]);
    // The log names the cause (the key id asked for), never the value.
    await until(() => c.output().includes('cannot be decrypted'), 'the log line');
    expect(c.output()).toContain(
      `participant device ${deviceId} cannot be decrypted: sealed with key id ${keyId(Buffer.from(secrets.ENCRYPTION_KEY, 'base64'))}`,
    );
    // The staff's refresh action: the spec's refresh failure, not a 500; nothing is deleted.
    const refresh = await onC.post('/api/fitbitRefreshToken', { id: participantId });
    expect(refresh.status).toBe(502);
    expect(((await refresh.json()) as { message: string }).message).toBe(LINK_MESSAGES.refreshFailed);

    // Rotate to C's key, reading the old values with the old key.
    const rotateEnv = {
      ...process.env,
      ...env,
      ENCRYPTION_KEY: otherKey,
      ENCRYPTION_KEYS_PREVIOUS: secrets.ENCRYPTION_KEY,
      DATA_DIR: dataDir(),
      LOG_LEVEL: 'silent',
    };
    const first = await runCliWithEnv(rotateEnv, 'rotate-encryption-key', '--batch-size', '1');
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({
      ok: true,
      command: 'rotate-encryption-key',
      keyId: keyId(Buffer.from(otherKey, 'base64')),
      tables: { provider_tokens: { resealed: 1, undecryptable: 0 } },
    });
    // Resumable: a second run finds nothing left to do.
    const again = JSON.parse((await runCliWithEnv(rotateEnv, 'rotate-encryption-key')).stdout);
    expect(again.tables.provider_tokens).toEqual({ resealed: 0, undecryptable: 0, changedMeanwhile: 0 });
    expect(again.tables.users.resealed).toBe(0);

    // C reads the token now; A (the old key only) gets the label, and nothing was lost.
    expect(await (await onC.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual(
      THE_DEVICES,
    );
    expect(await (await admin.get(`/api/participantDevices/${participantId}/fitbit`)).json()).toEqual([
      expect.objectContaining({ hasError: true, errorType: DEVICE_ERROR_LABELS.authCheckFailed }),
    ]);
  }, 60_000);

  it('the per-IP limit of a route is one budget for both servers (contact: 5 a minute)', async () => {
    const visitor = new HttpSession(a.base);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        (await (i % 2 ? visitor.via(b.base) : visitor).post('/api/contactUs', contact(`${i}`))).status,
      );
    // Three on each server: in memory each would have allowed all three; together the sixth is over.
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('six failed sign-ins spread over both servers lock the account as five on one would', async () => {
    const answers: number[] = [];
    for (let i = 0; i < MAX_FAILED_ATTEMPTS + 1; i++) {
      const server = i % 2 === 0 ? a : b;
      answers.push((await new HttpSession(server.base).post('/api/auth/login', wrongLogin())).status);
    }
    // Four refused, the fifth locks (423), the sixth is refused by the lock.
    expect(answers).toEqual([401, 401, 401, 401, 423, 423]);
    for (const server of [a, b]) {
      const right = await new HttpSession(server.base).post('/api/auth/login', {
        username: 'viewer',
        password: DEMO_PASSWORD,
      });
      expect(right.status).toBe(423);
      expect(((await right.json()) as { message: string }).message).toBe(SFA_MESSAGES.locked);
    }
    const { rows } = await db.query("SELECT lock_count FROM login_lockouts WHERE username_key = 'viewer'");
    expect(rows).toEqual([{ lock_count: 1 }]);
  });

  it('a job sent once runs once, with two servers and a worker taking jobs', async () => {
    const boss = await startQueue(appUrl, { background: false });
    let id: string | null;
    try {
      // Due in two seconds: by then every process is polling the queue.
      id = await boss.send('expired-tokens-cleanup', {}, { startAfter: 2 });
      expect(id).toBeTruthy();
      await until(
        async () => (await boss.getJobById('expired-tokens-cleanup', id!))?.state === 'completed',
        'the job to complete',
      );
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    // A moment for a second run to show, were there one.
    await new Promise((r) => setTimeout(r, 3000));
    const line = `job expired-tokens-cleanup ${id} done`;
    const runs = [a.output(), b.output(), c.output(), worker.output()].map((o) => o.split(line).length - 1);
    expect(runs.reduce((n, r) => n + r, 0)).toBe(1);
  }, 90_000);

  it('a server or worker with DATABASE_URL and no secrets refuses to start with one clear line', async () => {
    const noSecrets = (dir: string) => ({
      ...process.env,
      DATABASE_URL: appUrl,
      DATA_DIR: dir,
      SESSION_SECRET: '',
      ENCRYPTION_KEY: '',
      ENCRYPTION_KEY_FILE: '',
      PORT: '0',
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
    });
    const line =
      'with DATABASE_URL every server and worker must share the same secrets, and SESSION_SECRET and ENCRYPTION_KEY are not set: ' +
      'set SESSION_SECRET and ENCRYPTION_KEY (or ENCRYPTION_KEY_FILE) to the same values on every process ' +
      '(`npm run cli -- gen-secrets` prints a fresh pair)';
    const serverDir = dataDir();
    const workerDir = dataDir();
    const [server, work] = await Promise.all([
      runToEnd('apps/server/src/main.ts', noSecrets(serverDir)),
      runToEnd('apps/server/src/worker.ts', noSecrets(workerDir)),
    ]);
    expect(server.code).toBe(1);
    expect(server.output.trim()).toBe(`[trialwear] failed to start: ${line}`);
    expect(work.code).toBe(1);
    expect(work.output.trim()).toBe(`[trialwear-worker] failed to start: ${line}`);
    // Nothing generated into DATA_DIR.
    expect(fs.existsSync(path.join(serverDir, 'secrets.json'))).toBe(false);
    expect(fs.existsSync(path.join(workerDir, 'secrets.json'))).toBe(false);
  }, 60_000);

  it('SIGTERM: a server finishes, stops its workers and exits cleanly; the others keep serving', async () => {
    const exited = new Promise<number | null>((r) => c.child.once('exit', (code) => r(code)));
    c.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(c.output()).toContain('stopped cleanly');
    expect((await fetch(`${a.base}/api/ready`)).status).toBe(200);
  }, 40_000);
});

/** The simulated Fitbit account's devices, read with the stored token. */
const THE_DEVICES = [
  expect.objectContaining({ device: 'fitness tracker', deviceType: 'TRACKER', hasError: false }),
  expect.objectContaining({ device: 'scale', hasError: false }),
];

function contact(tag: string) {
  return {
    firstName: 'Scale',
    lastName: 'Tester',
    email: `scale-${tag}@x.example`,
    subject: 'Scale out',
    message: `Several servers, one budget (${tag}).`,
  };
}

function wrongLogin() {
  return { username: 'viewer', password: 'Wrong-pass1!' };
}
