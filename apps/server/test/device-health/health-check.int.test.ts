/*
 * Study health's device check (issue #23 items 1–2) against the simulators
 * mounted in the test app: for the last 3 complete local days and today,
 * Fitbit wear minutes (minutes with a heart-rate sample in the 1-minute
 * intraday answer), Dexcom CGM active time (EGVs of the displayed date of
 * 288) and Omron blood-pressure readings per local date, each equal to the
 * simulator's own generator; the device list's battery and last sync; a
 * re-check replaces the same days.
 */
import {
  dexcomEgvs,
  fitbitDevices,
  fitbitIntradayDataset,
  fitbitUserId,
  fitbitUserTimezone,
  omronDay,
} from '@trialwear/simulators';
import { addDays, instantOfLocal } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertReadings } from '../../src/features/readings/repo.js';
import { checkDeviceHealth } from '../../src/jobs/device-health/check-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

// 11:00 on 16 March 2027 in Los Angeles: the days checked are the 13th–15th and today, the 14th
// being the day US clocks go forward (a local day of 1,380 minutes).
const NOW = '2027-03-16T18:00:00Z';
const LA_DATES = ['2027-03-13', '2027-03-14', '2027-03-15', '2027-03-16'];
const clock = testClock(NOW);

describe('study health: the device check', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  const days = async (deviceId: number) =>
    (
      await t.ctx.db
        .selectFrom('device_health_days')
        .select(['local_date', 'wear_minutes', 'cgm_active_percent', 'bp_readings', 'metrics_present'])
        .where('participant_device_id', '=', deviceId)
        .orderBy('local_date')
        .execute()
    ).map((r) => ({ ...r, local_date: String(r.local_date).slice(0, 10) }));
  const deviceOf = async (pid: number) =>
    (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Health', { hiddenFields: [], allowedBrands: ['Fitbit', 'Omron', 'Dexcom'] });
    ({ trialId } = await trialWithParticipants(a, 'Health', []));
    for (const p of ['fitbit', 'omron', 'dexcom'] as const) await simControl(t, p).clock(NOW);
  });
  afterAll(() => t?.close());

  let candidates = 0;
  const participant = async () => {
    candidates += 1;
    return (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `h${candidates}@x.example` })
    ).json().participantId as number;
  };
  /** A new participant whose simulated Fitbit user lives in Los Angeles, linked through the legacy API. */
  const angeleno = async () => {
    const clientId = t.ctx.providers.links.fitbit.settings.clientId;
    for (let i = 0; i < 80; i++) {
      const pid = await participant();
      if (fitbitUserTimezone(fitbitUserId(`${clientId}:${pid}`)).tz !== 'America/Los_Angeles') continue;
      const user = await linkParticipant(t, a, pid, 'fitbit');
      return { pid, user, deviceId: await deviceOf(pid) };
    }
    throw new Error('no participant in Los Angeles');
  };

  it('Fitbit: wear minutes per local day are the minutes with a heart-rate sample, across the DST day; battery and last sync from the device list', async () => {
    const { user, deviceId } = await angeleno();
    const r = await checkDeviceHealth(t.ctx, deviceId);
    expect(r.status, r.error).toBe('checked');
    const want = LA_DATES.map((d) => fitbitIntradayDataset(user, d, 'heart', '1min').dataset.length);
    // (The DST day has 23 hours: at most 1,380 minutes.)
    expect((await days(deviceId)).map((d) => [d.local_date, d.wear_minutes])).toEqual(
      LA_DATES.map((d, i) => [d, want[i]]),
    );
    expect(Math.max(...want)).toBeLessThanOrEqual(1440);
    const tracker = fitbitDevices(user, new Date(NOW)).find((d) => d.type === 'TRACKER')!;
    const state = await t.ctx.db
      .selectFrom('device_sync_state')
      .select(['battery_level', 'provider_last_sync_at', 'device_checked_at'])
      .where('participant_device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(state.battery_level).toBe(tracker.batteryLevel);
    expect(state.provider_last_sync_at?.getTime()).toBe(
      instantOfLocal('America/Los_Angeles', tracker.lastSyncTime.slice(0, 19)),
    );
    expect(state.device_checked_at?.toISOString()).toBe(new Date(NOW).toISOString());
  });

  it('a re-check replaces the same days (idempotent)', async () => {
    const { deviceId } = await angeleno();
    await checkDeviceHealth(t.ctx, deviceId);
    const first = await days(deviceId);
    expect(first).toHaveLength(4);
    // Overwritten by hand, then checked again: the provider's values are back, no day twice.
    await t.ctx.db
      .updateTable('device_health_days')
      .set({ wear_minutes: 7 })
      .where('participant_device_id', '=', deviceId)
      .execute();
    expect((await checkDeviceHealth(t.ctx, deviceId)).status).toBe('checked');
    expect(await days(deviceId)).toEqual(first);
  });

  it("the metrics present on a day include an intraday metric's stored day (decision 039) beside the readings", async () => {
    const { pid, deviceId } = await angeleno();
    const date = LA_DATES[0]!;
    const midnight = instantOfLocal('America/Los_Angeles', `${date}T00:00:00`);
    const row = (metric: string, minute: number, value: number) => ({
      participant_id: pid,
      team_id: a.teamId,
      metric_key: metric,
      measured_at: new Date(midnight + minute * 60_000),
      local_date: date,
      local_time: `0${Math.floor(minute / 60)}:${String(minute % 60).padStart(2, '0')}:00`,
      utc_offset_minutes: -480,
      value,
      participant_device_id: deviceId,
    });
    await upsertReadings(t.ctx.db, [
      row('heart_rate_intraday', 61, 70),
      row('heart_rate_intraday', 62, 71),
      row('steps', 0, 4100),
    ]);
    expect((await checkDeviceHealth(t.ctx, deviceId)).status).toBe('checked');
    expect((await days(deviceId)).map((d) => [d.local_date, d.metrics_present])).toEqual(
      LA_DATES.map((d) => [d, d === date ? ['heart_rate_intraday', 'steps'] : []]),
    );
  });

  it('Dexcom: CGM active time per displayed date is the share of 288 EGVs that arrived', async () => {
    const pid = await participant();
    const user = await linkParticipant(t, a, pid, 'dexcom');
    const deviceId = await deviceOf(pid);
    const r = await checkDeviceHealth(t.ctx, deviceId);
    expect(r.status, r.error).toBe('checked');
    const egvs = dexcomEgvs(user, Date.parse(NOW) - 6 * 86_400_000, Date.parse(NOW)).filter(
      (e) => e.value !== null,
    );
    const rows = await days(deviceId);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const n = egvs.filter((e) => e.displayTime.slice(0, 10) === row.local_date).length;
      expect(Number(row.cgm_active_percent), row.local_date).toBe(
        Math.round((Math.min(n, 288) / 288) * 1000) / 10,
      );
      expect(row.wear_minutes).toBeNull();
    }
    // Complete days of a worn sensor are near 100 %; today only up to now.
    expect(Number(rows[2]!.cgm_active_percent)).toBeGreaterThan(50);
    expect(Number(rows[3]!.cgm_active_percent)).toBeLessThan(Number(rows[2]!.cgm_active_percent));
  });

  it('Omron: blood-pressure readings per local date of each reading', async () => {
    const pid = await participant();
    const user = await linkParticipant(t, a, pid, 'omron');
    const deviceId = await deviceOf(pid);
    const r = await checkDeviceHealth(t.ctx, deviceId);
    expect(r.status, r.error).toBe('checked');
    const rows = await days(deviceId);
    expect(rows).toHaveLength(4);
    const readings = Array.from({ length: 8 }, (_, i) => addDays('2027-03-10', i))
      .flatMap((d) => omronDay(user, d).bloodPressure)
      .filter((x) => Date.parse(x.dateTime) <= Date.parse(NOW));
    for (const row of rows)
      expect(row.bp_readings, row.local_date).toBe(
        readings.filter((x) => x.dateTimeLocal.slice(0, 10) === row.local_date).length,
      );
    expect(rows.reduce((n, x) => n + (x.bp_readings ?? 0), 0)).toBeGreaterThan(0);
  });
});
