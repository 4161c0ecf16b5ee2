/*
 * The jobs skeleton end to end: a real `worker` process (no HTTP) on the test
 * database registers the queues, takes the expired-token clean-up job and
 * removes exactly the rows past their life.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiredTokensCleanup } from '../../src/jobs/expired-tokens/job.js';
import { countRows } from '../../src/jobs/expired-tokens/repo.js';
import { enqueue } from '../../src/jobs/job-definition.js';
import { startQueue } from '../../src/queue/boss.js';
import { insertParticipant, insertTrial, type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { startWorker } from '../support/processes.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

describe('expired-token clean-up in a worker process', () => {
  let t: TestApp;
  let f: TeamFixture;
  /** The worker that runs the clean-up; the SIGTERM test stops a worker of its own. */
  let worker: Worker;
  const workers: Worker[] = [];
  const day = 24 * 60 * 60 * 1000;

  type Worker = { child: ChildProcess; output: () => string };
  async function runningWorker(): Promise<Worker> {
    const w = startWorker(t, {
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      SEED_DEMO: 'false',
    });
    workers.push(w);
    await until(
      () => w.output().includes('is running jobs'),
      () => `the worker to start:\n${w.output()}`,
    );
    return w;
  }

  /** For each table: one row long expired (goes), one spent two days ago (goes), one live (stays). */
  async function plantTokens() {
    const userId = f.userIds.Admin;
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms);
    const trialId = await insertTrial(t, { teamId: f.teamId, number: '1', name: 'C', code: 'C1' });
    const participantId = await insertParticipant(t, { teamId: f.teamId, trialId, email: 'c@x.example' });
    await t.ctx.db
      .insertInto('password_reset_tokens')
      .values([
        { token_hash: 'old', user_id: userId, created_at: at(-3 * day), expires_at: at(-2 * day) },
        {
          token_hash: 'spent',
          user_id: userId,
          created_at: at(-3 * day),
          expires_at: at(day),
          used_at: at(-2 * day),
        },
        { token_hash: 'live', user_id: userId, created_at: at(0), expires_at: at(day) },
      ] as never)
      .execute();
    await t.ctx.db
      .insertInto('oauth_states')
      .values([
        {
          nonce: 'old',
          participant_id: participantId,
          provider: 'fitbit',
          code_verifier: 'v',
          created_at: at(-3 * day),
          expires_at: at(-2 * day),
        },
        {
          nonce: 'spent',
          participant_id: participantId,
          provider: 'fitbit',
          code_verifier: 'v',
          created_at: at(-3 * day),
          expires_at: at(day),
          used_at: at(-2 * day),
        },
        {
          nonce: 'live',
          participant_id: participantId,
          provider: 'fitbit',
          code_verifier: 'v',
          created_at: at(0),
          expires_at: at(10 * 60_000),
        },
      ])
      .execute();
    await t.ctx.db
      .insertInto('email_sfa_codes')
      .values([
        { user_id: userId, code_hash: 'old', created_at: at(-3 * day), expires_at: at(-2 * day) },
        { user_id: userId, code_hash: 'live', created_at: at(0), expires_at: at(10 * 60_000) },
      ] as never)
      .execute();
    await t.ctx.db
      .insertInto('sessions')
      .values([
        {
          id: 'expired',
          user_id: userId,
          auth_status: 'Authorized',
          token_version: 0,
          created_at: at(-day),
          expires_at: at(-60_000),
        },
      ] as never)
      .execute();
    const account = await t.ctx.db
      .insertInto('participant_accounts')
      .values({ username: 'cleanup-p', email: 'cleanup-p@x.example', password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('participant_sessions')
      .values([
        { id: 'p-expired', account_id: account.id, created_at: at(-day), expires_at: at(-60_000) },
        { id: 'p-live', account_id: account.id, created_at: at(0), expires_at: at(30 * 60_000) },
      ])
      .execute();

    await t.ctx.db
      .insertInto('login_lockouts')
      .values([
        {
          username_key: 'stale',
          failed_attempts: 2,
          lock_count: 1,
          locked_until: at(-7 * day),
          last_failed_at: at(-8 * day),
        },
        {
          username_key: 'locked-now',
          failed_attempts: 0,
          lock_count: 3,
          locked_until: at(day),
          last_failed_at: at(-8 * day),
        },
        {
          username_key: 'recent',
          failed_attempts: 3,
          lock_count: 0,
          locked_until: null,
          last_failed_at: at(-day),
        },
      ])
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp();
    f = await teamWithRoles(t, 'Cleanup Team');
    worker = await runningWorker();
  }, 90_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await t.close();
  });

  it('takes the job from the queue and deletes exactly the expired and spent rows', async () => {
    await plantTokens();
    const before = await countRows(t.ctx.db);
    expect(before).toMatchObject({ passwordResetTokens: 3, oauthStates: 3, emailSfaCodes: 2 });
    const boss = await startQueue(t.ctx.config.DATABASE_URL!, { background: false });
    let id: string | null;
    try {
      id = await enqueue(boss, expiredTokensCleanup, {});
      expect(id).toBeTruthy();
    } finally {
      await boss.stop({ graceful: false });
    }
    // The job deletes table after table: wait for it to end, not for its first table.
    await until(
      async () =>
        (await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE id = ${id}`.execute(t.ctx.db))
          .rows[0]?.state === 'completed',
      () => `the clean-up to run:\n${worker.output()}`,
    );
    const left = {
      reset: await t.ctx.db.selectFrom('password_reset_tokens').select('token_hash').execute(),
      states: await t.ctx.db.selectFrom('oauth_states').select('nonce').execute(),
      codes: await t.ctx.db.selectFrom('email_sfa_codes').select('code_hash').execute(),
      sessions: await t.ctx.db.selectFrom('sessions').select('id').where('id', '=', 'expired').execute(),
      participantSessions: await t.ctx.db.selectFrom('participant_sessions').select('id').execute(),
    };
    expect(left.reset.map((r) => r.token_hash)).toEqual(['live']);
    expect(left.states.map((r) => r.nonce)).toEqual(['live']);
    expect(left.codes.map((r) => r.code_hash)).toEqual(['live']);
    expect(left.sessions).toEqual([]);
    expect(left.participantSessions.map((r) => r.id)).toEqual(['p-live']);
    const lockouts = await t.ctx.db
      .selectFrom('login_lockouts')
      .select('username_key')
      .orderBy('username_key')
      .execute();
    expect(lockouts.map((r) => r.username_key)).toEqual(['locked-now', 'recent']);
    // The rows are gone when the job's transaction commits; its log line comes after: wait for it.
    await until(
      () => /job expired-tokens-cleanup \S+ done/.test(worker.output()),
      () => `the job's log line:\n${worker.output()}`,
    );
  });

  it('refuses a payload its schema does not accept, before it is queued', async () => {
    const boss = await startQueue(t.ctx.config.DATABASE_URL!, { background: false });
    try {
      await expect(enqueue(boss, expiredTokensCleanup, { surprise: 1 } as never)).rejects.toThrow();
    } finally {
      await boss.stop({ graceful: false });
    }
  });

  it('stops cleanly on SIGTERM and serves no HTTP', async () => {
    // A worker of its own: the clean-up test's keeps running.
    const worker = await runningWorker();
    expect(worker.output()).not.toMatch(/listening|Server listening/i);
    const exited = new Promise<number | null>((resolve) => worker.child.on('exit', (code) => resolve(code)));
    worker.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(worker.output()).toContain('stopped cleanly');
    // Starts a worker process, as the hook does: the hook's time limit.
  }, 90_000);
});
