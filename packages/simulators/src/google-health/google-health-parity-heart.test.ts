/*
 * One person, two APIs (issue #13): for 30 days spanning a DST change, the
 * Google Health simulator's values equal the legacy Fitbit generator's for
 * the same local date: heart rate at 1 min and the heart-rate zones (time
 * in zone, active zone minutes).
 */

import { addDays, instantOfLocal } from '@trialwear/zone';
import { describe, expect, it } from 'vitest';
import { fitbitDay } from '../fitbit/fitbit-daily.js';
import { fitbitIntradayDataset } from '../fitbit/fitbit-intraday.js';
import { DAYS, legacy, sim, token, useParitySuite } from './parity-suite.js';
import { api, gdate, type Json, listAll } from './test-kit.js';

describe(
  'Google Health simulator: the same person as the legacy Fitbit simulator, heart rate and zones',
  { timeout: 30_000 },
  () => {
    useParitySuite();

    it('heart rate at 1 min (rollUp 60s) equals the legacy 1min dataset, on the day clocks go back too', async () => {
      const tz = 'America/New_York';
      for (const date of ['2026-10-20', '2026-11-01']) {
        if (!fitbitDay(legacy, date).worn) continue;
        const start = instantOfLocal(tz, `${date}T00:00`);
        const end = instantOfLocal(tz, `${addDays(date, 1)}T00:00`);
        const r = await api(sim, token, '/v4/users/me/dataTypes/heart-rate/dataPoints:rollUp', {
          range: { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString() },
          windowSize: '60s',
          pageSize: 10000,
        });
        expect(r.status).toBe(200);
        expect(r.body.rollupDataPoints.length).toBe((end - start) / 60_000); // 1500 on 2026-11-01
        const local = (iso: string) =>
          new Date(
            Date.parse(iso) + (Date.parse(iso) < Date.parse('2026-11-01T06:00:00Z') ? -4 : -5) * 3_600_000,
          )
            .toISOString()
            .slice(11, 19);
        const got = r.body.rollupDataPoints
          .filter((w: Json) => w.heartRate)
          .map((w: Json) => ({ time: local(w.startTime), value: Math.round(w.heartRate.beatsPerMinuteAvg) }));
        expect(got).toEqual(fitbitIntradayDataset(legacy, date, 'heart', '1min').dataset);
        // Exactly the mean, and the min/max of the samples.
        const w = r.body.rollupDataPoints.find((x: Json) => x.heartRate);
        expect(Number.isInteger(w.heartRate.beatsPerMinuteAvg)).toBe(true);
        expect(w.heartRate.beatsPerMinuteMin).toBeLessThanOrEqual(w.heartRate.beatsPerMinuteAvg);
      }
    });

    it('heart-rate zones (Google only; legacy zones are empty): thresholds, time in zone and active zone minutes agree with the 1min heart rate', async () => {
      const date = DAYS.find((d) => fitbitDay(legacy, d).worn && fitbitDay(legacy, d).minutesVeryActive > 0)!;
      const zones = await listAll(sim, token, 'daily-heart-rate-zones', {
        filter: `daily_heart_rate_zones.date >= "${date}" AND daily_heart_rate_zones.date < "${addDays(date, 1)}"`,
      });
      const thresholds = zones.points[0].dailyHeartRateZones.heartRateZones.map((z: Json) => ({
        zone: z.heartRateZoneType,
        min: Number(z.minBeatsPerMinute),
      }));
      expect(thresholds.map((z: Json) => z.zone)).toEqual(['LIGHT', 'MODERATE', 'VIGOROUS', 'PEAK']);
      const minutes: Record<string, number> = {};
      for (const e of fitbitIntradayDataset(legacy, date, 'heart', '1min').dataset) {
        const z = [...thresholds].reverse().find((x: Json) => e.value >= x.min)?.zone;
        if (z) minutes[z] = (minutes[z] ?? 0) + 1;
      }
      const range = { range: { start: { date: gdate(date) }, end: { date: gdate(addDays(date, 1)) } } };
      const tiz = await api(
        sim,
        token,
        '/v4/users/me/dataTypes/time-in-heart-rate-zone/dataPoints:dailyRollUp',
        range,
      );
      const got = Object.fromEntries(
        tiz.body.rollupDataPoints[0].timeInHeartRateZone.timeInHeartRateZones.map((x: Json) => [
          x.heartRateZone,
          Number(String(x.duration).replace('s', '')) / 60,
        ]),
      );
      expect(got).toEqual(minutes);
      const azm = await api(
        sim,
        token,
        '/v4/users/me/dataTypes/active-zone-minutes/dataPoints:dailyRollUp',
        range,
      );
      const a = azm.body.rollupDataPoints[0].activeZoneMinutes ?? {};
      expect(Number(a.sumInFatBurnHeartZone ?? 0)).toBe(minutes.MODERATE ?? 0);
      expect(Number(a.sumInCardioHeartZone ?? 0)).toBe(2 * (minutes.VIGOROUS ?? 0));
      expect(Number(a.sumInPeakHeartZone ?? 0)).toBe(2 * (minutes.PEAK ?? 0));
      expect(minutes.MODERATE).toBeGreaterThan(0);
    });
  },
);
