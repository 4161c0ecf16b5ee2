/*
 * The retention purge on a real database: exactly the readings past their
 * retention go (per team and metric, the team's retention capping a longer
 * metric retention, the boundary instant kept), in batches of 10,000, with one
 * audit row per batch (its count, and the pair's running count in the run);
 * `purge-now` prints its JSON line; the job is registered with a daily cron.
 * A purge killed mid-way: platform/crash-durability.int.test.ts. The purge
 * takes every team's readings, so each test has a database of its own.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/audit/verify-chain.js';
import { JOBS } from '../../src/jobs/registry.js';
import { retentionPurge } from '../../src/jobs/retention-purge/job.js';
import { PURGE_BATCH_SIZE, purgeExpiredReadings } from '../../src/jobs/retention-purge/purge.js';
import { batchDelete, targetsQuery } from '../../src/jobs/retention-purge/repo.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import { startQueue } from '../../src/queue/boss.js';
import { auditRows } from '../support/audit.js';
import { createTestTeam, insertParticipant, insertTrial } from '../support/fixtures.js';
import { runCli } from '../support/processes.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-06-15T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

interface Reading {
  participant_id: number;
  team_id: number;
  metric_key: string;
  measured_at: Date;
}

describe('retention purge', () => {
  let t: TestApp;
  /** Every reading inserted, with whether the purge must remove it. */
  const planted: Array<Reading & { goes: boolean }> = [];
  let teamA: number;
  let teamB: number;
  let pa: number;
  let pb: number;

  async function participantOf(teamId: number, code: string) {
    const trialId = await insertTrial(t, { teamId, number: code, name: code, code });
    return insertParticipant(t, { teamId, trialId, email: `${code}@x.example` });
  }

  async function setting(
    teamId: number,
    deviceName: string,
    metricKey: string,
    days: number,
    enabled = true,
  ) {
    const device = await t.ctx.db
      .selectFrom('team_supported_devices as s')
      .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
      .select('s.id')
      .where('s.team_id', '=', teamId)
      .where('g.device_name', '=', deviceName)
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('device_metric_settings')
      .values({
        team_id: teamId,
        team_supported_device_id: device.id,
        metric_key: metricKey,
        metric_name: metricKey,
        is_enabled: enabled,
        retention_days: days,
      })
      .execute();
  }

  /** Readings just past, exactly at and just inside the cutoff, and long past it. */
  function plantAround(participant: number, team: number, metric: string, days: number) {
    const cutoff = days * DAY;
    for (const [age, goes] of [
      [cutoff + 1, true],
      [cutoff + 400 * DAY, true],
      [cutoff, false],
      [cutoff - 1, false],
      [0, false],
    ] as const)
      planted.push({
        participant_id: participant,
        team_id: team,
        metric_key: metric,
        measured_at: ago(age),
        goes,
      });
  }

  const remaining = () =>
    t.ctx.db
      .selectFrom('device_readings')
      .select(['participant_id', 'team_id', 'metric_key', 'measured_at'])
      .orderBy('participant_id')
      .orderBy('metric_key')
      .orderBy('measured_at')
      .execute();

  const key = (r: Reading) => `${r.participant_id}|${r.metric_key}|${r.measured_at.toISOString()}`;

  // Each test its own database, teams, settings and planted readings.
  beforeEach(async () => {
    planted.length = 0;
    t = await createTestApp();
    teamA = await createTestTeam(t, 'Purge A'); // no team retention
    teamB = await createTestTeam(t, 'Purge B', { retentionDays: 7 });
    pa = await participantOf(teamA, 'PA');
    pb = await participantOf(teamB, 'PB');
    // A: steps 30 days on one tracker and 45 on the other (the longer wins); distance 10 days,
    // disabled (its readings still follow its retention); calories has no setting (default 30).
    await setting(teamA, 'Fitbit Smartwatches & Trackers', 'steps', 30);
    await setting(teamA, 'Fitbit Sense', 'steps', 45);
    await setting(teamA, 'Fitbit Sense', 'distance', 10, false);
    // B: steps 30 days, capped by the team's 7; floors 3 days (under the cap, kept as is).
    await setting(teamB, 'Fitbit Sense', 'steps', 30);
    await setting(teamB, 'Fitbit Sense', 'floors', 3);
    plantAround(pa, teamA, 'steps', 45);
    plantAround(pa, teamA, 'distance', 10);
    plantAround(pa, teamA, 'calories', 30);
    plantAround(pb, teamB, 'steps', 7);
    plantAround(pb, teamB, 'floors', 3);
    await t.ctx.db
      .insertInto('device_readings')
      .values(planted.map(({ goes: _, ...r }) => ({ ...r, local_date: '2026-01-01', value: 1 })))
      .execute();
  });
  afterEach(() => t.close());

  /** `n` steps readings of A's participant, one a minute, all older than steps' 45 days. */
  const plantOldSteps = (n: number) =>
    sql`
      INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date, value)
      SELECT ${pa}, ${teamA}, 'steps', ${ago(50 * DAY)}::timestamptz - make_interval(mins => i), '2026-01-01', i
      FROM generate_series(1, ${n}) AS i`.execute(t.ctx.db);

  const purgeAudit = () =>
    auditRows(t.ctx.db, 'readings.retention_purge', [
      'team_id',
      'user_id',
      'entity_type',
      'entity_id',
      'after',
    ]);

  it('removes exactly the readings past retention, and records each team × metric in the audit log', async () => {
    const result = await purgeExpiredReadings(t.ctx.db, NOW);
    const left = (await remaining()).map(key).sort();
    expect(left).toEqual(
      planted
        .filter((r) => !r.goes)
        .map(key)
        .sort(),
    );

    const expected = [
      { teamId: teamA, metricKey: 'calories', retentionDays: 30, deleted: 2 },
      { teamId: teamA, metricKey: 'distance', retentionDays: 10, deleted: 2 },
      { teamId: teamA, metricKey: 'steps', retentionDays: 45, deleted: 2 },
      { teamId: teamB, metricKey: 'floors', retentionDays: 3, deleted: 2 },
      { teamId: teamB, metricKey: 'steps', retentionDays: 7, deleted: 2 },
    ].map((p) => ({ ...p, cutoff: ago(p.retentionDays * DAY).toISOString(), batches: 1 }));
    expect(result.purged).toEqual(expected);
    expect(result.total).toBe(10);

    // Each pair fits one batch here: one row each, its count and the run's running count alike.
    const audit = await purgeAudit();
    const runId = (audit[0]?.after as { runId?: string } | undefined)?.runId;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(audit).toEqual(
      expected.map(({ batches: _, ...p }) => ({
        team_id: p.teamId,
        user_id: null,
        entity_type: 'device_readings',
        entity_id: `${p.teamId}:${p.metricKey}`,
        after: { ...p, runId, batch: 1, deletedInRun: p.deleted },
      })),
    );

    // A second run finds nothing more and writes no audit row.
    const again = await purgeExpiredReadings(t.ctx.db, NOW);
    expect(again).toMatchObject({ purged: [], total: 0 });
    const count = await t.ctx.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('action', '=', 'readings.retention_purge')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(expected.length);
    // The job's rows (no user) join the audit chain like any other.
    expect((await verifyAuditChain(t.ctx.db)).ok).toBe(true);
  });

  it('deletes more rows than one batch in several bounded batches', async () => {
    // The planted readings past retention go first.
    expect((await purgeExpiredReadings(t.ctx.db, NOW)).total).toBe(10);
    const n = 2 * PURGE_BATCH_SIZE + 500;
    await plantOldSteps(n);
    const before = (await remaining()).length;
    const audited = (await purgeAudit()).length;
    const result = await purgeExpiredReadings(t.ctx.db, NOW);
    expect(result.purged).toEqual([
      expect.objectContaining({ teamId: teamA, metricKey: 'steps', deleted: n, batches: 3 }),
    ]);
    expect((await remaining()).length).toBe(before - n);
    // One audit row per batch: the counts add up to the readings removed; the last reads as the pair's total.
    const rows = (await purgeAudit()).slice(audited).map((r) => r.after as Record<string, unknown>);
    expect(rows.map((r) => [r.batch, r.deleted, r.deletedInRun])).toEqual([
      [1, PURGE_BATCH_SIZE, PURGE_BATCH_SIZE],
      [2, PURGE_BATCH_SIZE, 2 * PURGE_BATCH_SIZE],
      [3, 500, n],
    ]);
    expect(new Set(rows.map((r) => r.runId)).size).toBe(1);
    expect(rows.every((r) => r.metricKey === 'steps' && r.teamId === teamA)).toBe(true);
  });

  it('the team’s retention caps a metric retention set longer later', async () => {
    // A first run with the settings as planted.
    expect((await purgeExpiredReadings(t.ctx.db, NOW)).total).toBe(10);
    await t.ctx.db
      .updateTable('device_metric_settings')
      .set({ retention_days: 365 })
      .where('team_id', '=', teamB)
      .execute();
    await t.ctx.db
      .insertInto('device_readings')
      .values([
        {
          participant_id: pb,
          team_id: teamB,
          metric_key: 'floors',
          measured_at: ago(8 * DAY),
          local_date: '2026-01-01',
        },
        {
          participant_id: pb,
          team_id: teamB,
          metric_key: 'floors',
          measured_at: ago(6 * DAY),
          local_date: '2026-01-01',
        },
      ])
      .execute();
    const result = await purgeExpiredReadings(t.ctx.db, NOW);
    expect(result.purged).toEqual([
      expect.objectContaining({ teamId: teamB, metricKey: 'floors', retentionDays: 7, deleted: 1 }),
    ]);
    const floors = await t.ctx.db
      .selectFrom('device_readings')
      .select('measured_at')
      .where('team_id', '=', teamB)
      .where('metric_key', '=', 'floors')
      .where('measured_at', '<', ago(3 * DAY))
      .execute();
    expect(floors.map((r) => r.measured_at.toISOString())).toContain(ago(6 * DAY).toISOString());
  });

  it('the pairs and each batch walk the (team, metric, time) index; a batch reaches rows by ctid', async () => {
    // A table of some size: on a page or two of readings a plan reads the whole table at once.
    await plantOldSteps(2 * PURGE_BATCH_SIZE + 500);
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${batchDelete(
      { teamId: teamA, metricKey: 'steps' },
      NOW,
      PURGE_BATCH_SIZE,
    )}`.execute(t.ctx.db);
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Tid Scan on device_readings/);
    expect(text).toMatch(/Index (Only )?Scan using device_readings_team_metric_time_idx/);
    expect(text).not.toMatch(/Seq Scan/);
    // The (team, metric) pairs: a skip scan of the same index, no pass over the table.
    const pairs = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${targetsQuery()}`.execute(t.ctx.db);
    const pairsText = pairs.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(pairsText).toMatch(/Index Only Scan using device_readings_team_metric_time_idx/);
    expect(pairsText).not.toMatch(/Seq Scan on device_readings/);
  });

  it('purge-now runs it inline and prints one JSON line with the counts', async () => {
    // The CLI uses the real clock, not NOW: start from an empty table, then one steps reading
    // of A a year old and one from an hour ago.
    await t.ctx.db.deleteFrom('device_readings').execute();
    const now = Date.now();
    await t.ctx.db
      .insertInto('device_readings')
      .values([
        {
          participant_id: pa,
          team_id: teamA,
          metric_key: 'steps',
          measured_at: new Date(now - 365 * DAY),
          local_date: '2025-01-01',
        },
        {
          participant_id: pa,
          team_id: teamA,
          metric_key: 'steps',
          measured_at: new Date(now - 3_600_000),
          local_date: '2025-01-01',
        },
      ])
      .execute();
    const out = runCli(t, 'purge-now');
    expect(out.code).toBe(0);
    expect(out.stdout.split('\n')).toHaveLength(1);
    const line = JSON.parse(out.stdout);
    expect(line).toMatchObject({ ok: true, command: 'purge-now', total: 1 });
    expect(typeof line.ms).toBe('number');
    expect(line.purged).toEqual([
      expect.objectContaining({
        teamId: teamA,
        metricKey: 'steps',
        retentionDays: 45,
        deleted: 1,
        batches: 1,
      }),
    ]);
    const steps = await t.ctx.db
      .selectFrom('device_readings')
      .select('measured_at')
      .where('team_id', '=', teamA)
      .where('metric_key', '=', 'steps')
      .where('measured_at', '<', new Date(now - 45 * DAY))
      .execute();
    expect(steps).toEqual([]);
  });

  it('is registered as a daily job on pg-boss', async () => {
    expect(JOBS).toContain(retentionPurge);
    const [minute, hour, ...rest] = retentionPurge.schedule!.cron.split(' ');
    expect(rest).toEqual(['*', '*', '*']);
    expect(minute).toMatch(/^\d+$/);
    expect(hour).toMatch(/^\d+$/);
    const boss = await startQueue(t.ctx.config.DATABASE_URL!, { background: false });
    try {
      await registerJobQueues(boss, JOBS);
      const schedules = await boss.getSchedules();
      expect(schedules).toContainEqual(
        expect.objectContaining({
          name: 'retention-purge',
          cron: retentionPurge.schedule!.cron,
          timezone: 'UTC',
        }),
      );
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});
