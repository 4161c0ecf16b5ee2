/*
 * Sync health is kept incrementally (device_reading_days, 015: triggers on
 * device_readings) instead of recounting every reading of the device after
 * each sync. After each change below, the figures refreshHealth stores must
 * equal the old full recount over the readings (the oracle here: the former
 * statements, verbatim but as a SELECT): a day synced again, a revised value
 * that takes a day's data away, a reading moved to another local date, days
 * sliding out of the 7-day window, the retention purge cutting a day in two
 * and the newest reading deleted (its offset is the "today" of a device
 * without a zone), then every reading gone. Another participant's readings
 * are written alongside and must never count.
 */
import { addDays } from '@trialwear/zone';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTodaySql } from '../../src/features/readings/local-today.js';
import { type ReadingRow, upsertReadings } from '../../src/features/readings/repo.js';
import * as syncRepo from '../../src/jobs/device-sync/repo.js';
import { deleteBatch } from '../../src/jobs/retention-purge/repo.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T12:00:00Z'; // 22:00 on the 20th at +10:00
const clock = testClock(NOW);
const DAYS = Array.from({ length: 14 }, (_, i) => addDays('2027-04-20', i - 13));
const OFFSET = 600;

interface Device {
  id: number;
  participant_id: number;
  team_id: number;
}

interface Health {
  utc_offset_minutes: number | null;
  rows_stored: number;
  days_with_data_7d: number;
  last_data_date: string | null;
}

describe('incremental sync health equals the full recount', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  const reading = (
    d: Device,
    metric: string,
    date: string,
    time: string,
    value: number,
    offset = OFFSET,
  ): ReadingRow => ({
    participant_id: d.participant_id,
    team_id: d.team_id,
    metric_key: metric,
    measured_at: new Date(Date.parse(`${date}T${time}Z`) - offset * 60_000),
    local_date: date,
    local_time: time,
    utc_offset_minutes: offset,
    value,
    participant_device_id: d.id,
    provider: 'fitbit',
    fetched_at: new Date(NOW),
  });

  /** The former refreshHealth over every reading of the device, as a SELECT (state unchanged). */
  const recount = async (device: Device): Promise<Health> => {
    const now = clock.now();
    const r = await sql<Health>`
      WITH o AS (
        SELECT s.time_zone, coalesce((
          SELECT utc_offset_minutes FROM device_readings
          WHERE participant_id = ${device.participant_id} AND participant_device_id = ${device.id}
            AND utc_offset_minutes IS NOT NULL
          ORDER BY measured_at DESC LIMIT 1), s.utc_offset_minutes) AS utc_offset_minutes
        FROM device_sync_state s WHERE s.participant_device_id = ${device.id})
      SELECT t.utc_offset_minutes, count(r.local_date)::int AS rows_stored,
        count(DISTINCT r.local_date) FILTER (WHERE r.worn AND r.local_date BETWEEN t.today - 6 AND t.today)::int
          AS days_with_data_7d,
        (max(r.local_date) FILTER (WHERE r.worn))::text AS last_data_date
      FROM (SELECT ${localTodaySql(now, 'o')} AS today, o.utc_offset_minutes FROM o) t
      LEFT JOIN (
        SELECT local_date,
          (metric_key <> ALL(${['steps', 'distance', 'floors', 'calories', 'minutes_sedentary', 'minutes_lightly_active', 'minutes_fairly_active', 'minutes_very_active']}::text[])
            OR (metric_key = ANY(${['steps', 'distance', 'floors', 'minutes_lightly_active', 'minutes_fairly_active', 'minutes_very_active']}::text[]) AND value > 0)) AS worn
        FROM device_readings WHERE participant_id = ${device.participant_id} AND participant_device_id = ${device.id}
      ) r ON true
      GROUP BY t.today, t.utc_offset_minutes`.execute(t.ctx.db);
    return r.rows[0]!;
  };
  /** refreshHealth's figures, checked against the recount; answers them. */
  const refreshed = async (device: Device): Promise<Health> => {
    const expected = await recount(device);
    await syncRepo.refreshHealth(t.ctx.db, device, clock.now(), null);
    const s = await t.ctx.db
      .selectFrom('device_sync_state')
      .select(['utc_offset_minutes', 'rows_stored', 'days_with_data_7d', 'last_data_date'])
      .where('participant_device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(s).toEqual(expected);
    return s;
  };

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Incremental', { hiddenFields: [] });
    ({ trialId } = await trialWithParticipants(a, 'Incremental', []));
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** A linked participant of the test's own: their device. */
  const newDevice = async (): Promise<Device> => {
    participants += 1;
    const pid = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `i${participants}@x.example` })
    ).json().participantId as number;
    await linkParticipant(t, a, pid, 'fitbit');
    const d = await t.ctx.db
      .selectFrom('participant_devices')
      .select(['id', 'participant_id', 'team_id'])
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    await syncRepo.ensureState(t.ctx.db, d.id);
    return d;
  };
  /**
   * The test's start (NOW) and its own two devices after the first writes, with the figures then
   * (`before`, checked against the recount).
   */
  const written = async () => {
    clock.set(NOW);
    const device = await newDevice();
    const other = await newDevice();
    // The device: steps at local midnight (0 on every third day: not worn), calories every day
    // (never worn alone), an hour of heart rate on the 12th, a resting heart rate on the 16th.
    const rows = DAYS.flatMap((date, i) => [
      reading(device, 'steps', date, '00:00:00', i % 3 === 0 ? 0 : 1000 + i),
      reading(device, 'calories', date, '00:00:00', 1500),
    ]);
    for (let m = 0; m < 60; m++)
      rows.push(reading(device, 'heart_rate', '2027-04-12', `10:${String(m).padStart(2, '0')}:00`, 70));
    rows.push(reading(device, 'resting_heart_rate', '2027-04-16', '00:00:00', 58));
    // Someone else's readings, every day and worn, written in the same statements.
    rows.push(...DAYS.map((date) => reading(other, 'steps', date, '00:00:00', 5, 60)));
    await upsertReadings(t.ctx.db, rows);
    return { device, other, before: await refreshed(device) };
  };

  it('after the first writes', async () => {
    const { before } = await written();
    expect(before.rows_stored).toBe(14 * 2 + 60 + 1);
    expect(before.utc_offset_minutes).toBe(OFFSET);
    expect(before.last_data_date).toBe('2027-04-20');
  });

  it('a day synced again (the same rows) changes nothing', async () => {
    const { device, before } = await written();
    await upsertReadings(t.ctx.db, [
      reading(device, 'steps', '2027-04-20', '00:00:00', 1013),
      reading(device, 'calories', '2027-04-20', '00:00:00', 1500),
    ]);
    expect(await refreshed(device)).toEqual(before);
  });

  it("a revised value (today's steps back to 0) takes the day's data away", async () => {
    const { device, before } = await written();
    await upsertReadings(t.ctx.db, [reading(device, 'steps', '2027-04-20', '00:00:00', 0)]);
    const after = await refreshed(device);
    expect(after.last_data_date).toBe('2027-04-18'); // the 19th's steps were 0 already
    expect(after.days_with_data_7d).toBe(before.days_with_data_7d - 1);
    expect(after.rows_stored).toBe(before.rows_stored);
    // And back: a value growing again during the day.
    await upsertReadings(t.ctx.db, [reading(device, 'steps', '2027-04-20', '00:00:00', 40)]);
    expect(await refreshed(device)).toEqual(before);
  });

  it('a reading moved to another local date (its offset corrected) leaves its old day', async () => {
    const { device } = await written();
    // The resting heart rate of the 16th, re-read as 23:00 on the 15th at +09:00 (the same instant).
    const moved = reading(device, 'resting_heart_rate', '2027-04-16', '00:00:00', 58);
    await upsertReadings(t.ctx.db, [
      { ...moved, local_date: '2027-04-15', local_time: '23:00:00', utc_offset_minutes: 540 },
    ]);
    await refreshed(device);
  });

  it('days slide out of the 7-day window with the local today, without any write', async () => {
    const { device, before } = await written();
    clock.advance(3 * 86_400_000);
    const after = await refreshed(device);
    expect(after.days_with_data_7d).toBeLessThan(before.days_with_data_7d);
  });

  it('the retention purge cuts a day in two, and the newest reading with an offset is deleted', async () => {
    const { device } = await written();
    // Heart rate and calories before 06:00 UTC on the 12th (16:00 local), in small batches: the 12th keeps
    // its steps but loses its newest reading (heart rate at 10:59).
    const cutoff = new Date('2027-04-12T06:00:00Z');
    while ((await deleteBatch(t.ctx.db, { teamId: device.team_id, metricKey: 'heart_rate' }, cutoff, 7)) > 0);
    while ((await deleteBatch(t.ctx.db, { teamId: device.team_id, metricKey: 'calories' }, cutoff, 3)) > 0);
    await refreshed(device);
    // A later reading at +11:00 becomes the newest, then goes: the offset falls back to the one before.
    await upsertReadings(t.ctx.db, [reading(device, 'weight', '2027-04-20', '23:00:00', 70, 660)]);
    expect((await refreshed(device)).utc_offset_minutes).toBe(660);
    await t.ctx.db
      .deleteFrom('device_readings')
      .where('participant_id', '=', device.participant_id)
      .where('metric_key', '=', 'weight')
      .execute();
    expect((await refreshed(device)).utc_offset_minutes).toBe(OFFSET);
  });

  it('every reading gone: nothing stored, no day with data, the last offset kept', async () => {
    const { device, other } = await written();
    await t.ctx.db
      .deleteFrom('device_readings')
      .where('participant_id', '=', device.participant_id)
      .execute();
    expect(await refreshed(device)).toEqual({
      utc_offset_minutes: OFFSET,
      rows_stored: 0,
      days_with_data_7d: 0,
      last_data_date: null,
    });
    const left = await t.ctx.db
      .selectFrom('device_reading_days')
      .select('local_date')
      .where('participant_device_id', '=', device.id)
      .execute();
    expect(left).toEqual([]);
    // The other participant's days were never touched.
    const others = await t.ctx.db
      .selectFrom('device_reading_days')
      .select(['readings', 'worn_readings'])
      .where('participant_device_id', '=', other.id)
      .execute();
    expect(others).toHaveLength(14);
    expect(others.every((d) => d.readings === 1 && d.worn_readings === 1)).toBe(true);
  });
});
