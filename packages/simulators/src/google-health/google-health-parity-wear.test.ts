/*
 * Wear on both APIs (decision 032): per local day, the minutes with a
 * Google heart-rate point are the truth (`fitbitWearMinutes`) and the
 * minutes of the legacy 1min dataset, over New York's DST change; the
 * tracker's control routes, set on either simulator, change what both
 * answer (battery, last sync, no points after a sync stop).
 */
import { addDays, instantOfLocal } from '@trialwear/zone';
import { afterEach, describe, expect, it } from 'vitest';
import { fitbitTrackerLastSync } from '../fitbit/fitbit-data.js';
import { fitbitIntradayDataset } from '../fitbit/fitbit-intraday.js';
import { fitbitWearMinutes } from '../fitbit/fitbit-wear.js';
import { DAYS, healthUserId, legacy, sim, token, useParitySuite } from './parity-suite.js';
import { api, control, gdate, type Json } from './test-kit.js';

const TZ = 'America/New_York';

/** The minutes of a local date with heart-rate points on Google: rollUp in 60 s windows over the day. */
async function googleHeartMinutes(date: string): Promise<Set<string>> {
  const start = instantOfLocal(TZ, `${date}T00:00`);
  const end = instantOfLocal(TZ, `${addDays(date, 1)}T00:00`);
  const r = await api(sim, token, '/v4/users/me/dataTypes/heart-rate/dataPoints:rollUp', {
    range: { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString() },
    windowSize: '60s',
    pageSize: 1500,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.nextPageToken).toBeUndefined();
  return new Set(
    r.body.rollupDataPoints.filter((p: Json) => p.heartRate !== undefined).map((p: Json) => p.startTime),
  );
}

const legacyHeartMinutes = (date: string) =>
  fitbitIntradayDataset(legacy, date, 'heart', '1min').dataset.length;

/** The Fitbit simulator's control API (mounted beside Google's by startSim). */
async function fitbitControl(path: string, body: object) {
  const res = await fetch(`${sim.base.replace('/google-health', '/fitbit')}/_control/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const tracker = async () =>
  (await api(sim, token, '/v4/users/me/pairedDevices')).body.pairedDevices.find(
    (d: Json) => d.deviceType === 'TRACKER',
  );

describe('Google Health simulator: the same wear as the legacy Fitbit simulator', { timeout: 60_000 }, () => {
  useParitySuite();
  afterEach(async () => {
    await control(sim, 'reset');
    sim.clock.set(new Date('2026-11-20T12:00:00Z'));
  });

  it('per local day, minutes with a heart-rate point = the truth = the legacy 1min dataset, across the DST change', async () => {
    const kinds = new Set<string>();
    for (const date of DAYS) {
      const truth = fitbitWearMinutes(legacy, date);
      expect((await googleHeartMinutes(date)).size, date).toBe(truth);
      expect(legacyHeartMinutes(date), date).toBe(truth);
      kinds.add(truth === 0 ? 'none' : truth >= 1380 ? 'all' : 'part');
    }
    // The 30 days show days off, whole days and partial days.
    expect([...kinds].sort()).toEqual(['all', 'none', 'part']);
  });

  it('wear set on the legacy simulator shows on Google, and the reverse; the truth follows both', async () => {
    const [a, b] = [DAYS[3]!, DAYS[17]!]; // before and on New York's DST change (2026-11-01)
    expect(b).toBe('2026-11-01');
    const viaFitbit = await fitbitControl('wear', { userId: legacy, from: a, minutesPerDay: 200 });
    expect(viaFitbit.body.days).toEqual([{ date: a, wearMinutes: 200 }]);
    expect((await googleHeartMinutes(a)).size).toBe(200);
    const viaGoogle = await control(sim, 'wear', { userId: healthUserId, from: b, hoursPerDay: 24 });
    expect(viaGoogle.days).toEqual([{ date: b, wearMinutes: 1440 }]);
    expect(legacyHeartMinutes(b)).toBe(1440);
    expect((await googleHeartMinutes(b)).size).toBe(1440);
    // Steps on Google only in worn minutes: the day's roll-up is the legacy day's.
    const steps = await api(sim, token, '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
      range: { start: { date: gdate(a) }, end: { date: gdate(addDays(a, 1)) } },
      windowSizeDays: 1,
    });
    const legacySteps = fitbitIntradayDataset(legacy, a, 'steps', '1min').dataset.reduce(
      (n, e) => n + e.value,
      0,
    );
    expect(Number(steps.body.rollupDataPoints[0].steps?.countSum ?? 0)).toBe(legacySteps);
  });

  it('battery and sync stop set on one simulator: pairedDevices and the legacy devices agree; no points after the stop', async () => {
    await fitbitControl('battery', { userId: legacy, level: 4 });
    expect(await tracker()).toMatchObject({ batteryLevel: 4, batteryStatus: 'Empty' });
    const at = instantOfLocal(TZ, `${DAYS[20]}T09:00`);
    const stop = await control(sim, 'stop-sync', { userId: healthUserId, at: new Date(at).toISOString() });
    expect(stop.stoppedAt).toBe(new Date(at).toISOString());
    expect((await tracker()).lastSyncTime).toBe(new Date(at).toISOString().replace('.000Z', 'Z'));
    expect(fitbitTrackerLastSync(legacy, sim.clock.now()).getTime()).toBe(at);
    // Nothing recorded from 09:00 on that day, nothing the days after, on both APIs.
    expect(fitbitWearMinutes(legacy, DAYS[20]!)).toBeLessThanOrEqual(9 * 60);
    expect((await googleHeartMinutes(DAYS[20]!)).size).toBe(fitbitWearMinutes(legacy, DAYS[20]!));
    for (const date of DAYS.slice(21, 24)) {
      expect((await googleHeartMinutes(date)).size, date).toBe(0);
      expect(legacyHeartMinutes(date), date).toBe(0);
    }
    const list = await api(
      sim,
      token,
      `/v4/users/me/dataTypes/steps/dataPoints?filter=${encodeURIComponent(`steps.interval.civil_start_time >= "${DAYS[21]}T00:00:00"`)}`,
    );
    expect(list.status).toBe(200);
    expect(list.body.dataPoints).toBeUndefined();
    // Syncing again (through the legacy simulator's control): the backlog arrives on Google too.
    await fitbitControl('stop-sync', { userId: legacy, at: null });
    expect((await googleHeartMinutes(DAYS[22]!)).size).toBe(fitbitWearMinutes(legacy, DAYS[22]!));
    expect(fitbitWearMinutes(legacy, DAYS[22]!)).toBeGreaterThan(0);
  });
});
