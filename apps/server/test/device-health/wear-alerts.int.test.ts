/*
 * From the tracker to the alert, through the simulator's control API (its
 * wear, battery and sync stop: decision 032): wear minutes per local day
 * equal the simulator's truth (fitbitWearMinutes), a day the tracker has not
 * synced is no data (null, not 0), and a participant who wore the tracker
 * under 10 hours on the last 2 complete days gets one low-wear alert, which
 * closes by itself once a late upload shows the wear.
 */
import {
  fitbitTrackerLastSync,
  fitbitUserId,
  fitbitUserTimezone,
  fitbitWearMinutes,
} from '@trialwear/simulators';
import { addDays, localDate } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { checkDeviceHealth } from '../../src/jobs/device-health/check-device.js';
import { evaluateTrialAlerts } from '../../src/jobs/study-health/evaluate-alerts.js';
import { linkParticipant, simControl } from '../support/linked-participant.js';
import { addParticipant, type HealthTeam, healthTeam } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

// 20:00 UTC on 26 November 2026.
const NOW = '2026-11-26T20:00:00Z';
const clock = testClock(NOW);

describe('study health: wear from the tracker to the alert', () => {
  let t: TestApp;
  let h: HealthTeam;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    h = await healthTeam(t, 'Wear');
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  const sim = () => simControl(t, 'fitbit');
  let seq = 0;
  /** A linked participant of the trial: its simulated user, local dates, today first-last. */
  const wearer = async () => {
    seq += 1;
    const p = await addParticipant(t, h.team, h.trialId, `wear${seq}@x.example`);
    const user = await linkParticipant(t, h.team, p.id, 'fitbit');
    expect(user).toBe(fitbitUserId(`${t.ctx.providers.links.fitbit.settings.clientId}:${p.id}`));
    const { tz } = fitbitUserTimezone(user);
    const today = localDate(tz, Date.parse(NOW));
    const dates = [3, 2, 1, 0].map((n) => addDays(today, -n));
    const deviceId = (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', p.id)
        .executeTakeFirstOrThrow()
    ).id;
    return { pid: p.id, user, dates, deviceId };
  };
  const wear = async (deviceId: number) =>
    (
      await t.ctx.db
        .selectFrom('device_health_days')
        .select(['local_date', 'wear_minutes'])
        .where('participant_device_id', '=', deviceId)
        .orderBy('local_date')
        .execute()
    ).map((r) => [String(r.local_date).slice(0, 10), r.wear_minutes]);

  it("wear minutes per local day are the simulator's truth, set through its control API (a drawer day is 0)", async () => {
    const w = await wearer();
    try {
      await sim().post('wear', { userId: w.user, from: w.dates[0], days: 1, minutesPerDay: 600 });
      await sim().post('wear', { userId: w.user, from: w.dates[1], days: 1, minutesPerDay: 0 });
      const r = await checkDeviceHealth(t.ctx, w.deviceId);
      expect(r.status, r.error).toBe('checked');
      const truth = w.dates.map((d) => fitbitWearMinutes(w.user, d));
      expect(truth.slice(0, 2)).toEqual([600, 0]);
      expect(await wear(w.deviceId)).toEqual(w.dates.map((d, i) => [d, truth[i]]));
    } finally {
      await sim().post('reset');
      await sim().clock(NOW);
    }
  });

  it('a day the tracker has not synced yet is no data, not 0', async () => {
    const w = await wearer();
    try {
      // The tracker last synced the day before yesterday at noon: yesterday and today are not uploaded.
      const { tz } = fitbitUserTimezone(w.user);
      const at = `${w.dates[1]}T12:00:00.000Z`;
      await sim().post('stop-sync', { userId: w.user, at });
      expect(fitbitTrackerLastSync(w.user, new Date(NOW)).toISOString()).toBe(at);
      const r = await checkDeviceHealth(t.ctx, w.deviceId);
      expect(r.status, r.error).toBe('checked');
      const rows = await wear(w.deviceId);
      expect(rows.map((x) => x[1] === null)).toEqual([false, false, true, true]);
      expect(localDate(tz, Date.parse(at))).toBe(w.dates[1]);
    } finally {
      await sim().post('reset');
      await sim().clock(NOW);
    }
  });

  it('under 10 hours on the last 2 complete days: one low-wear alert; a late upload showing the wear closes it', async () => {
    const w = await wearer();
    const scope = systemScope.trial('fixture', h.team.teamId, h.trialId);
    const alerts = () =>
      t.ctx.db
        .selectFrom('health_alerts')
        .select(['rule_key', 'closed_at', 'detail'])
        .where('participant_id', '=', w.pid)
        .execute();
    try {
      await sim().post('wear', { userId: w.user, from: w.dates[1], days: 2, hoursPerDay: 4 });
      await checkDeviceHealth(t.ctx, w.deviceId);
      await evaluateTrialAlerts(t.ctx, scope);
      const [alert] = await alerts();
      expect(alert).toMatchObject({ rule_key: 'lowWear', closed_at: null });
      expect(alert!.detail).toEqual({
        minHours: 10,
        days: [
          { date: w.dates[1], wearMinutes: 240 },
          { date: w.dates[2], wearMinutes: 240 },
        ],
      });
      // Yesterday's minutes arrive late (the tracker uploads them now): 16 hours worn.
      await sim().post('wear', { userId: w.user, from: w.dates[2], days: 1, hoursPerDay: 16 });
      await checkDeviceHealth(t.ctx, w.deviceId);
      await evaluateTrialAlerts(t.ctx, scope);
      expect((await alerts()).map((a) => [a.rule_key, a.closed_at !== null])).toEqual([['lowWear', true]]);
    } finally {
      await sim().post('reset');
      await sim().clock(NOW);
    }
  });
});
