/*
 * The retention purge of intraday day rows (decision 039) on a real
 * database: a month whose every day has expired for every team × metric in
 * it is dropped as a partition; a month another team still keeps loses only
 * the expired team's days; the day across the cutoff loses exactly its
 * samples before the cutoff (one at the cutoff stays); sync health's day
 * counts follow; every removal has its audit row with the samples it took.
 * The purge takes every team's data, so each test has a database of its own.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/audit/verify-chain.js';
import { type ReadingRow, storedReadings, upsertReadings } from '../../src/features/readings/repo.js';
import { purgeExpiredReadings } from '../../src/jobs/retention-purge/purge.js';
import { auditRows } from '../support/audit.js';
import { createTestTeam, insertParticipant, insertTrial } from '../support/fixtures.js';
import { insertLink } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const DAY = 86_400_000;
const NOW = new Date('2026-06-15T12:00:00.000Z');
const pad = (n: number) => String(n).padStart(2, '0');

describe('retention purge of intraday day rows', () => {
  let t: TestApp;
  let teamA: number;
  let teamB: number;
  let a: { id: number; deviceId: number };
  let b: { id: number; deviceId: number };

  async function participantOf(teamId: number, code: string) {
    const trialId = await insertTrial(t, { teamId, number: code, name: code, code });
    const id = await insertParticipant(t, { teamId, trialId, email: `${code}@x.example` });
    return { id, deviceId: await insertLink(t, teamId, id) };
  }

  /** Every 10th minute of a UTC day (144 samples) of heart rate for a participant. */
  const utcDay = (p: { id: number; deviceId: number }, teamId: number, date: string): ReadingRow[] =>
    Array.from({ length: 144 }, (_, i) => ({
      participant_id: p.id,
      team_id: teamId,
      metric_key: 'heart_rate_intraday',
      measured_at: new Date(Date.parse(`${date}T00:00:00Z`) + i * 600_000),
      local_date: date,
      local_time: `${pad(Math.floor(i / 6))}:${pad((i % 6) * 10)}:00`,
      utc_offset_minutes: 0,
      value: 60 + (i % 30),
      participant_device_id: p.deviceId,
    }));

  const partitions = async () =>
    (
      await sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'intraday_days'::regclass ORDER BY c.relname`.execute(t.ctx.db)
    ).rows.map((r) => r.name);

  const dayCounts = (deviceId: number) =>
    t.ctx.db
      .selectFrom('device_reading_days')
      .select(['local_date', 'readings'])
      .where('participant_device_id', '=', deviceId)
      .orderBy('local_date')
      .execute();

  beforeEach(async () => {
    t = await createTestApp();
    teamA = await createTestTeam(t, 'Intraday purge A'); // heart_rate_intraday: the default 30 days
    teamB = await createTestTeam(t, 'Intraday purge B');
    // B keeps intraday heart rate a year.
    const device = await t.ctx.db
      .selectFrom('team_supported_devices as s')
      .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
      .select('s.id')
      .where('s.team_id', '=', teamB)
      .where('g.device_name', '=', 'Fitbit Sense')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('device_metric_settings')
      .values({
        team_id: teamB,
        team_supported_device_id: device.id,
        metric_key: 'heart_rate_intraday',
        metric_name: 'Intraday heart rate',
        is_enabled: true,
        retention_days: 365,
      })
      .execute();
    a = await participantOf(teamA, 'IA');
    b = await participantOf(teamB, 'IB');
  });
  afterEach(() => t.close());

  it('drops a wholly expired month, deletes expired days elsewhere, trims the day across the cutoff', async () => {
    // A's cutoff is 2026-05-16T12:00Z (30 days). March holds B's days too (kept a year): not
    // droppable. April holds only A's: dropped. May: 10th deleted, 16th trimmed at noon, 17th kept.
    const aDates = ['2026-03-10', '2026-04-20', '2026-04-30', '2026-05-10', '2026-05-16', '2026-05-17'];
    const aRows = aDates.flatMap((d) => utcDay(a, teamA, d));
    const bRows = utcDay(b, teamB, '2026-03-11');
    await upsertReadings(t.ctx.db, [...aRows, ...bRows]);
    expect(await partitions()).toEqual(
      expect.arrayContaining(['intraday_days_2026_03', 'intraday_days_2026_04', 'intraday_days_2026_05']),
    );

    const result = await purgeExpiredReadings(t.ctx.db, NOW);
    const cutoff = new Date(NOW.getTime() - 30 * DAY);
    const kept = aRows.filter((r) => r.measured_at >= cutoff);
    expect(kept[0]!.measured_at.toISOString()).toBe('2026-05-16T12:00:00.000Z');
    expect((await storedReadings(t.ctx.db, a.id, 'heart_rate_intraday')).map((r) => r.measured_at)).toEqual(
      kept.map((r) => r.measured_at),
    );
    expect(await storedReadings(t.ctx.db, b.id, 'heart_rate_intraday')).toHaveLength(144);
    const parts = await partitions();
    expect(parts).not.toContain('intraday_days_2026_04');
    expect(parts).toEqual(expect.arrayContaining(['intraday_days_2026_03', 'intraday_days_2026_05']));

    const removed = aRows.length - kept.length;
    expect(result.purged).toEqual([
      {
        teamId: teamA,
        metricKey: 'heart_rate_intraday',
        retentionDays: 30,
        cutoff: cutoff.toISOString(),
        deleted: removed,
        batches: 3,
      },
    ]);
    // The drop of April (2 days), the batch of March 10 and May 10, the trim of May 16's morning.
    const audit = await auditRows(t.ctx.db, 'readings.retention_purge', ['team_id', 'entity_type', 'after']);
    expect(audit.map((r) => [r.team_id, r.entity_type, (r.after as { deleted: number }).deleted])).toEqual([
      [teamA, 'intraday_days', 288],
      [teamA, 'intraday_days', 288],
      [teamA, 'intraday_days', 72],
    ]);
    expect(audit[0]!.after).toMatchObject({ month: '2026-04', days: 2 });
    expect(audit[2]!.after).toMatchObject({ edge: true, deletedInRun: removed });
    expect((await verifyAuditChain(t.ctx.db)).ok).toBe(true);

    // Sync health counts what is left, per day.
    expect((await dayCounts(a.deviceId)).map((d) => [d.local_date, d.readings])).toEqual([
      ['2026-05-16', 72],
      ['2026-05-17', 144],
    ]);
    expect((await dayCounts(b.deviceId)).map((d) => [d.local_date, d.readings])).toEqual([
      ['2026-03-11', 144],
    ]);

    // A second run finds nothing more.
    expect(await purgeExpiredReadings(t.ctx.db, NOW)).toMatchObject({ purged: [], total: 0 });
  });

  it('a month whose every team has expired is dropped whole, with an audit row per team', async () => {
    const aRows = utcDay(a, teamA, '2026-02-03');
    // B's year has passed too for this February, a year and a half ago.
    const bRows = utcDay(b, teamB, '2024-12-31');
    await upsertReadings(t.ctx.db, [...aRows, ...bRows, ...utcDay(b, teamB, '2025-01-01')]);
    await purgeExpiredReadings(t.ctx.db, NOW);
    const parts = await partitions();
    expect(parts).not.toContain('intraday_days_2026_02');
    expect(parts).not.toContain('intraday_days_2024_12');
    expect(parts).not.toContain('intraday_days_2025_01');
    expect(await storedReadings(t.ctx.db, a.id, 'heart_rate_intraday')).toEqual([]);
    expect(await storedReadings(t.ctx.db, b.id, 'heart_rate_intraday')).toEqual([]);
    expect(await dayCounts(a.deviceId)).toEqual([]);
    expect(await dayCounts(b.deviceId)).toEqual([]);
    const audit = await auditRows(t.ctx.db, 'readings.retention_purge', ['team_id', 'after']);
    expect(audit.map((r) => [r.team_id, (r.after as { month: string }).month])).toEqual([
      [teamB, '2024-12'],
      [teamB, '2025-01'],
      [teamA, '2026-02'],
    ]);
  });
});
