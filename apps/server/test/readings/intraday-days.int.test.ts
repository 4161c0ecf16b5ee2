/*
 * Intraday metrics stored as day rows (migration 021, decision 039) on a real
 * database: a day is one row whose samples read back as exactly the readings
 * stored, across both DST changes; a day stored again writes nothing and a
 * revised day replaces it; a reading off the grid is refused with nothing
 * stored; a month without a partition gets one; device_reading_days counts
 * the samples; and the move of migration 021 keeps every reading.
 */
import { offsetMinutesAt } from '@trialwear/zone';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReadingRow, storedReadings, upsertReadings } from '../../src/features/readings/repo.js';
import { intradayPartitions } from '../../src/jobs/intraday-partitions/job.js';
import { JOBS } from '../../src/jobs/registry.js';
import { createTestTeam, insertTrial } from '../support/fixtures.js';
import { insertLink } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const LONDON = 'Europe/London';
const MINUTE = 60_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock time of an instant at an offset, HH:mm:ss. */
function localTimeOf(at: number, offset: number) {
  const d = new Date(at + offset * MINUTE);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

describe('intraday day rows', () => {
  let t: TestApp;
  let teamId: number;
  let trialId: number;
  let seq = 0;

  async function participant() {
    seq += 1;
    const { id } = await t.ctx.db
      .insertInto('participants')
      .values({ team_id: teamId, trial_id: trialId, email: `i${seq}@x.example` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const deviceId = await insertLink(t, teamId, id);
    return { id, deviceId };
  }

  /**
   * Every minute of a London local day from its local midnight to the next
   * (1,380 on the spring day, 1,500 on the autumn day), minus `gaps`, with a
   * heart rate from the minute's index; `value` overrides.
   */
  function londonDay(
    p: { id: number; deviceId: number },
    date: string,
    opts: { gaps?: (i: number) => boolean; value?: (i: number) => number; metric?: string } = {},
  ): ReadingRow[] {
    const start =
      Date.parse(`${date}T00:00:00Z`) - offsetMinutesAt(LONDON, Date.parse(`${date}T00:00:00Z`)) * MINUTE;
    const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const end =
      Date.parse(`${next}T00:00:00Z`) - offsetMinutesAt(LONDON, Date.parse(`${next}T00:00:00Z`)) * MINUTE;
    const rows: ReadingRow[] = [];
    for (let at = start, i = 0; at < end; at += MINUTE, i++) {
      if (opts.gaps?.(i)) continue;
      const offset = offsetMinutesAt(LONDON, at);
      rows.push({
        participant_id: p.id,
        team_id: teamId,
        metric_key: opts.metric ?? 'heart_rate_intraday',
        measured_at: new Date(at),
        local_date: date,
        local_time: localTimeOf(at, offset),
        utc_offset_minutes: offset,
        value: opts.value?.(i) ?? 50 + (i % 60),
        participant_device_id: p.deviceId,
        provider: 'fitbit',
        fetched_at: new Date('2026-11-01T10:42:00Z'),
      });
    }
    return rows;
  }

  /** What storedReadings answers for rows stored as given. */
  const asStored = (rows: ReadingRow[]) =>
    rows.map((r) => ({
      metric_key: r.metric_key,
      measured_at: r.measured_at,
      local_date: r.local_date,
      local_time: r.local_time,
      utc_offset_minutes: r.utc_offset_minutes,
      value: r.value,
      value_json: null,
      participant_device_id: r.participant_device_id,
      provider: r.provider,
    }));

  const dayRows = (pid: number) =>
    t.ctx.db
      .selectFrom('intraday_days')
      .select(['local_date', 'value_count', 'worn_count', 'offset_shifts', 'step_seconds'])
      .where('participant_id', '=', pid)
      .orderBy('local_date')
      .execute();

  const dayCounts = (deviceId: number) =>
    t.ctx.db
      .selectFrom('device_reading_days')
      .select(['local_date', 'readings', 'worn_readings', 'newest_at', 'newest_offset_minutes'])
      .where('participant_device_id', '=', deviceId)
      .orderBy('local_date')
      .execute();

  beforeAll(async () => {
    t = await createTestApp();
    teamId = await createTestTeam(t, 'Intraday Team');
    trialId = await insertTrial(t, { teamId, number: '1', name: 'I', code: 'I1' });
  });
  afterAll(() => t.close());

  it('a day is one row; its samples read back as the readings stored, across both DST changes', async () => {
    const p = await participant();
    // Spring (clocks 01:00 → 02:00: 1,380 minutes) and autumn (02:00 → 01:00: 1,500, 01:xx twice).
    const spring = londonDay(p, '2026-03-29', { gaps: (i) => i % 97 === 5 });
    const autumn = londonDay(p, '2026-10-25');
    expect(spring).toHaveLength(1380 - 15);
    expect(autumn).toHaveLength(1500);
    expect(autumn.filter((r) => r.local_time === '01:30:00').map((r) => r.utc_offset_minutes)).toEqual([
      60, 0,
    ]);
    expect(await upsertReadings(t.ctx.db, [...autumn, ...spring])).toBe(spring.length + autumn.length);

    expect(await dayRows(p.id)).toEqual([
      {
        local_date: '2026-03-29',
        value_count: spring.length,
        worn_count: spring.length,
        offset_shifts: [60, 60],
        step_seconds: 60,
      },
      {
        local_date: '2026-10-25',
        value_count: 1500,
        worn_count: 1500,
        offset_shifts: [120, 0],
        step_seconds: 60,
      },
    ]);
    expect(await storedReadings(t.ctx.db, p.id, 'heart_rate_intraday')).toEqual(
      asStored([...spring, ...autumn]),
    );
    expect(
      await storedReadings(t.ctx.db, p.id, 'heart_rate_intraday', { from: '2026-10-25', to: '2026-10-25' }),
    ).toEqual(asStored(autumn));
    // Sync health's days count the samples; the newest is the day's last minute at its offset.
    expect(await dayCounts(p.deviceId)).toEqual([
      {
        local_date: '2026-03-29',
        readings: spring.length,
        worn_readings: spring.length,
        newest_at: spring.at(-1)!.measured_at,
        newest_offset_minutes: 60,
      },
      {
        local_date: '2026-10-25',
        readings: 1500,
        worn_readings: 1500,
        newest_at: autumn.at(-1)!.measured_at,
        newest_offset_minutes: 0,
      },
    ]);
  });

  it('the same day again writes nothing; a revised day replaces the stored one', async () => {
    const p = await participant();
    const first = londonDay(p, '2026-06-10', { gaps: (i) => i > 600 }); // synced at 10:00
    expect(await upsertReadings(t.ctx.db, first)).toBe(601);
    expect(await upsertReadings(t.ctx.db, first)).toBe(0);
    // Later that day the tracker uploaded more, and Fitbit revised the morning.
    const revised = londonDay(p, '2026-06-10', {
      gaps: (i) => i > 900 || (i >= 100 && i < 120),
      value: (i) => (i < 60 ? 40 : 50 + (i % 60)),
    });
    expect(await upsertReadings(t.ctx.db, revised)).toBe(revised.length);
    expect(await storedReadings(t.ctx.db, p.id, 'heart_rate_intraday')).toEqual(asStored(revised));
    expect((await dayRows(p.id)).map((d) => d.value_count)).toEqual([revised.length]);
    expect((await dayCounts(p.deviceId)).map((d) => [d.readings, d.newest_at])).toEqual([
      [revised.length, revised.at(-1)!.measured_at],
    ]);
  });

  it('a reading off the grid is refused, and nothing of its batch is stored', async () => {
    const p = await participant();
    const day = londonDay(p, '2026-06-11', { gaps: (i) => i > 10 });
    const off = {
      ...day[3]!,
      measured_at: new Date(day[3]!.measured_at.getTime() + 30_000),
      local_time: '00:03:30',
    };
    const steps: ReadingRow = { ...day[0]!, metric_key: 'steps', local_time: '00:00:00', value: 10 };
    await expect(upsertReadings(t.ctx.db, [steps, ...day.slice(0, 3), off])).rejects.toThrow(
      /heart_rate_intraday: the reading at 2026-06-10T23:03:30.000Z .* is off the 60-second grid of 2026-06-11/,
    );
    expect(await dayRows(p.id)).toEqual([]);
    expect(await storedReadings(t.ctx.db, p.id, 'steps')).toEqual([]);
  });

  it('a day of a month without a partition is stored: the month is made on the way', async () => {
    const p = await participant();
    const day = londonDay(p, '2019-06-10', { gaps: (i) => i % 2 === 1 });
    expect(await upsertReadings(t.ctx.db, day)).toBe(720);
    expect(await storedReadings(t.ctx.db, p.id, 'heart_rate_intraday')).toEqual(asStored(day));
    const parts = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'intraday_days'::regclass AND c.relname = 'intraday_days_2019_06'`.execute(
      t.ctx.db,
    );
    expect(parts.rows).toHaveLength(1);
  });

  it('writers meeting a month without a partition at once all store their days', async () => {
    const ps = await Promise.all([participant(), participant(), participant(), participant()]);
    const days = ps.map((p) => londonDay(p, '2033-05-10', { gaps: (i) => i % 10 !== 0 }));
    expect(await Promise.all(days.map((d) => upsertReadings(t.ctx.db, d)))).toEqual(
      days.map((d) => d.length),
    );
    for (const [i, p] of ps.entries())
      expect(await storedReadings(t.ctx.db, p.id, 'heart_rate_intraday')).toEqual(asStored(days[i]!));
  });

  it('the daily job makes last month, this month and the next two ahead', async () => {
    expect(JOBS).toContain(intradayPartitions);
    const now = () => new Date('2031-01-31T23:00:00Z');
    expect(await intradayPartitions.handler({ ...t.ctx, now }, {})).toEqual({
      from: '2030-12-01',
      to: '2031-03-01',
    });
    const parts = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'intraday_days'::regclass AND c.relname ~ '^intraday_days_203[01]_'
      ORDER BY c.relname`.execute(t.ctx.db);
    expect(parts.rows.map((r) => r.name)).toEqual([
      'intraday_days_2030_12',
      'intraday_days_2031_01',
      'intraday_days_2031_02',
      'intraday_days_2031_03',
    ]);
    // Again: nothing to make, nothing fails.
    await intradayPartitions.handler({ ...t.ctx, now }, {});
  });

  it("migration 021's move keeps every reading stored row by row, and refuses a reading off the grid", async () => {
    const p = await participant();
    const q = await participant();
    const rows = [
      ...londonDay(p, '2026-03-29', { gaps: (i) => i % 7 === 0 }),
      ...londonDay(p, '2026-10-25', { gaps: (i) => i < 30 || i > 1400 }),
      ...londonDay(q, '2026-07-01', { gaps: (i) => i % 3 !== 0 }),
    ];
    // As the sync stored them before 021: one row per reading.
    const insert = (rs: ReadingRow[]) =>
      t.ctx.db
        .insertInto('device_readings')
        .values(
          rs.map((r) => ({
            participant_id: r.participant_id,
            team_id: r.team_id,
            metric_key: r.metric_key,
            measured_at: r.measured_at,
            local_date: r.local_date,
            local_time: r.local_time!,
            utc_offset_minutes: r.utc_offset_minutes!,
            value: r.value!,
            participant_device_id: r.participant_device_id!,
            provider: 'fitbit' as const,
            fetched_at: r.fetched_at!,
          })),
        )
        .execute();
    await insert(rows);
    const countsBefore = [await dayCounts(p.deviceId), await dayCounts(q.deviceId)];

    // A reading off the minute grid: the move stops and changes nothing.
    const r = await participant();
    const bad = londonDay(r, '2026-07-02', { gaps: (i) => i > 3 });
    await insert([
      { ...bad[0]!, measured_at: new Date(bad[0]!.measured_at.getTime() + 1000), local_time: '00:00:01' },
    ]);
    const move = () =>
      sql<{ moved: string }>`SELECT intraday_move_readings('heart_rate_intraday', 60) AS moved`.execute(
        t.ctx.db,
      );
    await expect(move()).rejects.toThrow(/1 heart_rate_intraday readings are off the 60-second grid/);
    expect(await storedReadings(t.ctx.db, p.id, 'heart_rate_intraday')).toEqual([]);
    await t.ctx.db.deleteFrom('device_readings').where('participant_id', '=', r.id).execute();

    expect(Number((await move()).rows[0]!.moved)).toBe(rows.length);
    const left = await t.ctx.db
      .selectFrom('device_readings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('metric_key', '=', 'heart_rate_intraday')
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const byParticipant = (pid: number) => rows.filter((x) => x.participant_id === pid);
    expect(await storedReadings(t.ctx.db, p.id, 'heart_rate_intraday')).toEqual(
      asStored(byParticipant(p.id)),
    );
    expect(await storedReadings(t.ctx.db, q.id, 'heart_rate_intraday')).toEqual(
      asStored(byParticipant(q.id)),
    );
    expect([await dayCounts(p.deviceId), await dayCounts(q.deviceId)]).toEqual(countsBefore);
  });
});
