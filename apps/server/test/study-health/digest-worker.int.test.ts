/*
 * The digest as a pg-boss job (issue #23 item 5, decision 033): two real
 * `worker` processes on the test database each take a study-health-digest
 * job at the same time; every subscribed staff member still gets exactly one
 * digest, written to the outbox by the workers' mail path.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studyHealthDigest } from '../../src/jobs/study-health/job.js';
import { startQueue } from '../../src/queue/boss.js';
import { allMail, mailText } from '../support/mail.js';
import { startWorker } from '../support/processes.js';
import { addParticipant, healthTeam, insertAlert } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

describe('study health: the digest job on two workers', () => {
  let t: TestApp;
  const workers: Array<ReturnType<typeof startWorker>> = [];

  beforeAll(async () => {
    t = await createTestApp();
    const env = {
      ENCRYPTION_KEY: t.ctx.config.ENCRYPTION_KEY!,
      SESSION_SECRET: t.ctx.config.SESSION_SECRET!,
      SEED_DEMO: 'false',
    };
    for (let i = 0; i < 2; i++) workers.push(startWorker(t, env));
    for (const w of workers)
      await until(() => w.output().includes('is running jobs'), `a worker to start:\n${w.output()}`, 60_000);
  }, 90_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await t?.close();
  });

  it('two digest jobs at once: one digest per recipient', async () => {
    const h = await healthTeam(t, 'Digest workers');
    const p = await addParticipant(t, h.team, h.trialId, 'workers@x.example');
    await insertAlert(t, {
      teamId: h.team.teamId,
      trialId: h.trialId,
      participantId: p.id,
      ruleKey: 'lowWear',
      openedAt: new Date(Date.now() - 3_600_000).toISOString(),
      detail: { minHours: 10, days: [{}, {}] },
    });
    for (const role of ['Admin', 'User'] as const) {
      const res = await h.team.as[role].put(`/api/studyHealth/trials/${h.trialId}/subscription`, {
        digest: true,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Due whenever the test runs: 00:00 in UTC.
    const {
      isDefault: _d,
      updatedAt: _u,
      ...rules
    } = (await h.team.as.Admin.get(`/api/studyHealth/trials/${h.trialId}/rules`)).json();
    const put = await h.team.as.Admin.put(`/api/studyHealth/trials/${h.trialId}/rules`, {
      ...rules,
      timezone: 'UTC',
      digest: { enabled: true, localTime: '00:00' },
    });
    expect(put.statusCode, put.body).toBe(200);

    const boss = await startQueue(t.ctx.config.DATABASE_URL!, { background: false });
    try {
      // Two jobs (no singleton key): each worker may take one at the same moment.
      const ids = await Promise.all([
        boss.send(studyHealthDigest.name, {}),
        boss.send(studyHealthDigest.name, {}),
      ]);
      expect(ids.filter(Boolean)).toHaveLength(2);
      await until(
        async () => {
          const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pgboss.job
          WHERE name = 'study-health-digest' AND state IN ('created', 'retry', 'active')`.execute(t.ctx.db);
          return rows[0]!.n === 0;
        },
        `the digest jobs to finish:\n${workers.map((w) => w.output()).join('\n')}`,
      );
    } finally {
      await boss.stop({ graceful: false });
    }
    const rows = await t.ctx.db
      .selectFrom('health_digests_sent')
      .select(['user_id', 'mailed_at'])
      .where('trial_id', '=', h.trialId)
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.mailed_at !== null)).toBe(true);
    for (const role of ['Admin', 'User'] as const) {
      const { email } = await t.ctx.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', h.team.userIds[role])
        .executeTakeFirstOrThrow();
      const mails = (await allMail(t.dataDir, (raw) => raw.split(/\r?\n/).includes(`To: ${email}`))).map(
        mailText,
      );
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain('Subject: TrialWear study health: 1 open alert in Health 1');
    }
  });
});
