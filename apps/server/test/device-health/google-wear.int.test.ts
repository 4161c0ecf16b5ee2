/*
 * Wear minutes of a Fitbit linked through the Google Health API: the
 * minutes of each local day with a heart-rate data point, equal to the same
 * person's truth in the simulators (both Fitbit APIs share one wear model,
 * decision 032), set through the Google simulator's control API.
 */
import { fitbitUserTimezone, fitbitWearMinutes } from '@trialwear/simulators';
import { addDays, localDate } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDeviceHealth } from '../../src/jobs/device-health/check-device.js';
import { linkParticipant, simControl } from '../support/linked-participant.js';
import { addParticipant, healthTeam } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2026-11-26T20:00:00Z';
const clock = testClock(NOW);

describe('study health: wear through the Google Health API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now, env: { FITBIT_API: 'google_health' } });
    await simControl(t, 'google-health').clock(NOW);
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  it("wear minutes per local day are the person's truth; battery from Google's paired devices", async () => {
    const h = await healthTeam(t, 'Google wear');
    const p = await addParticipant(t, h.team, h.trialId, 'google-wear@x.example');
    await linkParticipant(t, h.team, p.id, 'fitbit');
    const link = await t.ctx.db
      .selectFrom('participant_devices')
      .select(['id', 'provider', 'legacy_user_id'])
      .where('participant_id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect(link.provider).toBe('google_health');
    const person = link.legacy_user_id!;
    const today = localDate(fitbitUserTimezone(person).tz, Date.parse(NOW));
    const dates = [3, 2, 1, 0].map((n) => addDays(today, -n));
    const gh = simControl(t, 'google-health');
    try {
      await gh.post('wear', { userId: person, from: dates[0], days: 1, hoursPerDay: 9 });
      await gh.post('battery', { userId: person, level: 12 });
      const r = await checkDeviceHealth(t.ctx, link.id);
      expect(r.status, r.error).toBe('checked');
      const rows = await t.ctx.db
        .selectFrom('device_health_days')
        .select(['local_date', 'wear_minutes'])
        .where('participant_device_id', '=', link.id)
        .orderBy('local_date')
        .execute();
      const truth = dates.map((d) => fitbitWearMinutes(person, d));
      expect(truth[0]).toBe(540);
      expect(rows.map((x) => [String(x.local_date).slice(0, 10), x.wear_minutes])).toEqual(
        dates.map((d, i) => [d, truth[i]]),
      );
      expect(r.batteryLevel).toBe(12);
    } finally {
      await gh.post('reset');
      await gh.clock(NOW);
    }
  });
});
