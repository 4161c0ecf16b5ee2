/*
 * One person, two APIs (issue #13): for 30 days spanning a DST change, the
 * Google Health simulator's values equal the legacy Fitbit generator's for
 * the same local date: the daily health types (resting heart rate, HRV,
 * SpO2, breathing rate, VO2 max, skin temperature), sleep, SpO2 samples,
 * weight and body fat.
 */

import { addDays, instantOfLocal } from '@trialwear/zone';
import { describe, expect, it } from 'vitest';
import { fitbitDay } from '../fitbit/fitbit-daily.js';
import { fitbitHrvIntraday } from '../fitbit/fitbit-hrv-intraday.js';
import { skinBaseline } from './data-types/sleep-day.js';
import {
  civilText,
  DAYS,
  dateFilter,
  dateOf,
  FIRST,
  healthUserId,
  LAST,
  legacy,
  sim,
  token,
  useParitySuite,
} from './parity-suite.js';
import { api, type Json, listAll } from './test-kit.js';

describe(
  'Google Health simulator: the same person as the legacy Fitbit simulator, daily health types, sleep and body',
  { timeout: 30_000 },
  () => {
    useParitySuite();

    it('daily types equal the legacy values: resting heart rate, HRV, SpO2, breathing rate, VO2 max, skin temperature', async () => {
      const read = async (type: string) => {
        const { points } = await listAll(sim, token, type, {
          filter: dateFilter(type.replaceAll('-', '_')),
          pageSize: '100',
        });
        const key = type.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
        return new Map(points.map((p: Json) => [dateOf(p[key].date), p[key]]));
      };
      const [rhr, hrv, spo2, br, vo2, temp] = await Promise.all(
        [
          'daily-resting-heart-rate',
          'daily-heart-rate-variability',
          'daily-oxygen-saturation',
          'daily-respiratory-rate',
          'daily-vo2-max',
          'daily-sleep-temperature-derivations',
        ].map(read),
      );
      const skin = temp!;
      for (const date of DAYS) {
        const d = fitbitDay(legacy, date);
        if (!d.worn) {
          for (const m of [rhr, hrv, spo2, br, vo2, skin]) expect(m!.has(date), date).toBe(false);
          continue;
        }
        expect(rhr!.get(date).beatsPerMinute, date).toBe(String(d.restingHeartRate));
        const low = Number(d.vo2Max!.split('-')[0]);
        expect(vo2!.get(date), date).toMatchObject({ vo2Max: low + 2, estimated: true });
        if (!d.sleep) {
          // A night off the wrist: no main sleep, so none of the values Fitbit computes from it.
          for (const m of [hrv, spo2, br, skin]) expect(m!.has(date), date).toBe(false);
          continue;
        }
        expect(hrv!.get(date).averageHeartRateVariabilityMilliseconds, date).toBe(d.hrv!.dailyRmssd);
        expect(hrv!.get(date).deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds, date).toBe(
          d.hrv!.deepRmssd,
        );
        expect(spo2!.get(date).averagePercentage, date).toBe(d.spo2!.avg);
        expect(br!.get(date).breathsPerMinute, date).toBe(d.breathingRate);
        const t = skin.get(date);
        expect(t.baselineTemperatureCelsius, date).toBe(skinBaseline(legacy));
        expect(
          Math.round((t.nightlyTemperatureCelsius - t.baselineTemperatureCelsius) * 100) / 100 + 0,
          date,
        ).toBe(d.skinTempRelative);
      }
    });

    it('sleep: the legacy main sleep of each wake-up date, same start, id, minutes and stage minutes', async () => {
      const { points, pages } = await listAll(sim, token, 'sleep', {
        filter: `sleep.interval.civil_end_time >= "${FIRST}" AND sleep.interval.civil_end_time < "${addDays(LAST, 1)}"`,
      });
      expect(pages).toBeGreaterThan(1); // 25 per page at most
      const byDate = new Map(points.map((p: Json) => [dateOf(p.sleep.interval.civilEndTime.date), p]));
      for (const date of DAYS) {
        const s = fitbitDay(legacy, date).sleep;
        if (!s) {
          expect(byDate.has(date), date).toBe(false);
          continue;
        }
        const p = byDate.get(date);
        expect(p.name, date).toBe(
          `users/${healthUserId}/dataTypes/sleep/dataPoints/${date.replaceAll('-', '')}${String(legacy.charCodeAt(0)).padStart(3, '0')}`,
        );
        const sl = p.sleep;
        expect(civilText(sl.interval.civilStartTime), date).toBe(s.start.slice(0, 19));
        const inBed = s.minutesAsleep + s.wake;
        expect(Date.parse(sl.interval.endTime) - Date.parse(sl.interval.startTime)).toBe(inBed * 60_000);
        expect(sl.summary).toMatchObject({
          minutesInSleepPeriod: String(inBed),
          minutesAsleep: String(s.minutesAsleep),
          minutesAwake: String(s.wake),
        });
        const summary = Object.fromEntries(
          sl.summary.stagesSummary.map((x: Json) => [x.type, Number(x.minutes)]),
        );
        expect(summary).toEqual({ DEEP: s.deep, LIGHT: s.light, REM: s.rem, AWAKE: s.wake });
        // The stages tile the sleep, without overlap, and their minutes are the summary's.
        const perType: Record<string, number> = {};
        let t = Date.parse(sl.interval.startTime);
        for (const st of sl.stages) {
          expect(Date.parse(st.startTime)).toBe(t);
          t = Date.parse(st.endTime);
          perType[st.type] =
            (perType[st.type] ?? 0) + (Date.parse(st.endTime) - Date.parse(st.startTime)) / 60_000;
        }
        expect(t).toBe(Date.parse(sl.interval.endTime));
        expect(perType).toEqual(summary);
        expect(sl.metadata).toEqual({ stagesStatus: 'SUCCEEDED', processed: true, mainSleep: true });
        expect(sl.type).toBe('STAGES');
      }
      // get by id answers the same point.
      const one = points[0];
      const got = await api(
        sim,
        token,
        `/v4/users/me/dataTypes/sleep/dataPoints/${one.name.split('/').pop()}`,
      );
      expect(got.body).toEqual(one);
    });

    it('SpO2 min and max: the extremes of the night’s samples, once the sentinel 50 % values are left out', async () => {
      for (const date of DAYS.slice(0, 6)) {
        const o = fitbitDay(legacy, date).spo2;
        const { points } = await listAll(sim, token, 'oxygen-saturation', {
          filter: `oxygen_saturation.sample_time.civil_time >= "${addDays(date, -1)}T12:00:00" AND oxygen_saturation.sample_time.civil_time < "${date}T12:00:00"`,
        });
        if (!o) {
          expect(points).toEqual([]);
          continue;
        }
        const values = points.map((p: Json) => p.oxygenSaturation.percentage as number);
        expect(values.filter((v: number) => v === 50).length).toBe(3);
        const real = values.filter((v: number) => v !== 50);
        expect(Math.min(...real)).toBe(o.min);
        expect(Math.max(...real)).toBe(o.max);
      }
    });

    it('HRV samples: the legacy 5-minute samples of each night (same instants and RMSSD), with an SDNN', async () => {
      let nights = 0;
      for (const date of DAYS.slice(10, 22)) {
        const { points } = await listAll(sim, token, 'heart-rate-variability', {
          filter: `heart_rate_variability.sample_time.civil_time >= "${addDays(date, -1)}T12:00:00" AND heart_rate_variability.sample_time.civil_time < "${date}T12:00:00"`,
        });
        const s = fitbitDay(legacy, date).sleep;
        // The night's start as the legacy sleep log gives it: New York's wall clock.
        const want = s
          ? fitbitHrvIntraday(legacy, date, instantOfLocal('America/New_York', s.start.slice(0, 19)))
          : [];
        const got = points.map((p: Json) => ({
          at: Date.parse(p.heartRateVariability.sampleTime.physicalTime),
          rmssd: p.heartRateVariability.rootMeanSquareOfSuccessiveDifferencesMilliseconds,
        }));
        got.sort((x: { at: number }, y: { at: number }) => x.at - y.at); // the list answers newest first
        expect(got, date).toEqual(want.map((x) => ({ at: x.at, rmssd: x.rmssd })));
        for (const p of points)
          expect(p.heartRateVariability.standardDeviationMilliseconds).toBeGreaterThan(0);
        if (want.length) nights++;
      }
      expect(nights).toBeGreaterThan(5);
    });

    it('weight and body fat: samples at the legacy log time, in grams and percent', async () => {
      const filter = (t: string) =>
        `${t}.sample_time.civil_time >= "${FIRST}" AND ${t}.sample_time.civil_time < "${addDays(LAST, 1)}"`;
      const w = await listAll(sim, token, 'weight', { filter: filter('weight') });
      const f = await listAll(sim, token, 'body-fat', { filter: filter('body_fat') });
      const weights = new Map(w.points.map((p: Json) => [civilText(p.weight.sampleTime.civilTime), p]));
      const fats = new Map(f.points.map((p: Json) => [civilText(p.bodyFat.sampleTime.civilTime), p]));
      for (const date of DAYS) {
        const d = fitbitDay(legacy, date);
        const key = `${date}T07:38:14`;
        if (d.weightKg === null) {
          expect(weights.has(key)).toBe(false);
          continue;
        }
        expect(weights.get(key).weight.weightGrams / 1000).toBe(d.weightKg);
        expect(weights.get(key).dataSource.device).toEqual({
          displayName: 'Aria Air',
          formFactor: 'SCALE',
          manufacturer: 'Fitbit',
        });
        expect(fats.get(key).bodyFat.percentage).toBe(d.fatPct);
      }
      // Height for the legacy BMI (1.72 m), entered once: a list without a filter finds it.
      const h = await listAll(sim, token, 'height', {});
      expect(h.points.map((p: Json) => p.height.heightMillimeters)).toEqual(['1720']);
    });
  },
);
