/*
 * One person, two APIs (issue #13): for 30 days spanning a DST change, every
 * mapped data type read from the Google Health simulator equals the legacy
 * Fitbit generator's value for the same local date; time fields follow the
 * user's zone across the change; daily roll-ups cut days at the user's
 * local midnight; a move to another zone mid-period keeps local dates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitbitActivityLog } from '../fitbit/fitbit-activity-log.js';
import { fitbitDay, fitbitIntradaySteps } from '../fitbit/fitbit-daily.js';
import { fitbitUserId, fitbitUserTimezone } from '../fitbit/fitbit-data.js';
import { fitbitIntradayDataset } from '../fitbit/fitbit-intraday.js';
import { instantOfLocal } from '../zone.js';
import { calorieCents } from './data-types/activity-day.js';
import { skinBaseline } from './data-types/sleep-day.js';
import { DEFAULT_CONFIG as GOOGLE_HEALTH_DEFAULT } from './gh-config.js';
import { People } from './person.js';
import {
  api,
  control,
  gdate,
  type Json,
  LEGACY_CLIENT,
  link,
  listAll,
  type Sim,
  startSim,
} from './test-kit.js';

/** A consent state whose person lives in a zone. */
function stateIn(tz: string, skip = 0) {
  let found = 0;
  for (let i = 0; ; i++)
    if (fitbitUserTimezone(fitbitUserId(`${LEGACY_CLIENT}:p${i}`)).tz === tz && found++ === skip)
      return `p${i}.n.m`;
}
const addDays = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const dateOf = (g: { year: number; month: number; day: number }) =>
  `${g.year}-${String(g.month).padStart(2, '0')}-${String(g.day).padStart(2, '0')}`;
const civilText = (c: { date: Json; time?: Json }) =>
  `${dateOf(c.date)}T${String(c.time?.hours ?? 0).padStart(2, '0')}:${String(c.time?.minutes ?? 0).padStart(2, '0')}:${String(c.time?.seconds ?? 0).padStart(2, '0')}`;

// New York leaves summer time on 2026-11-01: the 30 days straddle it.
const FIRST = '2026-10-15';
const DAYS = Array.from({ length: 30 }, (_, i) => addDays(FIRST, i));
const LAST = DAYS[DAYS.length - 1]!;

describe(
  'Google Health simulator: the same person as the legacy Fitbit simulator',
  { timeout: 30_000 },
  () => {
    let sim: Sim;
    let token = '';
    let legacy = '';
    let healthUserId = '';

    beforeAll(async () => {
      sim = await startSim();
      sim.clock.set(new Date('2026-11-20T12:00:00Z'));
      const t = await link(sim, stateIn('America/New_York')!);
      token = t.access_token;
      const id = await api(sim, token, '/v4/users/me/identity');
      legacy = id.body.legacyUserId;
      healthUserId = id.body.healthUserId;
      expect(fitbitUserTimezone(legacy).tz).toBe('America/New_York');
    });
    afterAll(() => sim.close());

    /** dailyRollUp over the 30 days in 14-day chunks: date → the type's value object. */
    async function daily(type: string): Promise<Map<string, Json>> {
      const out = new Map<string, Json>();
      for (let from = FIRST; from <= LAST; from = addDays(from, 14)) {
        const to = [addDays(from, 14), addDays(LAST, 1)].sort()[0]!;
        const r = await api(sim, token, `/v4/users/me/dataTypes/${type}/dataPoints:dailyRollUp`, {
          range: { start: { date: gdate(from) }, end: { date: gdate(to) } },
          windowSizeDays: 1,
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        for (const p of r.body.rollupDataPoints) {
          expect(dateOf(p.civilEndTime.date)).toBe(addDays(dateOf(p.civilStartTime.date), 1));
          const key = Object.keys(p).find((k) => !k.startsWith('civil'));
          out.set(dateOf(p.civilStartTime.date), key ? p[key] : undefined);
        }
      }
      expect([...out.keys()]).toEqual(DAYS);
      return out;
    }

    const dateFilter = (snake: string) =>
      `${snake}.date >= "${FIRST}" AND ${snake}.date < "${addDays(LAST, 1)}"`;

    it('activity daily roll-ups equal the legacy day: steps, distance, floors, elevation, calories, activity levels', async () => {
      const [steps, distance, floors, altitude, calories, levels, active] = await Promise.all(
        ['steps', 'distance', 'floors', 'altitude', 'total-calories', 'activity-level', 'active-minutes'].map(
          daily,
        ),
      );
      let worn = 0;
      for (const date of DAYS) {
        const d = fitbitDay(legacy, date);
        // Calories exist every day (the basal part even when the tracker is not worn).
        expect(calories!.get(date).kcalSum, date).toBe(d.calories);
        if (!d.worn) {
          // No tracker data at all: the legacy API said 0 steps and 1440 sedentary minutes.
          for (const m of [steps, distance, floors, altitude, levels, active])
            expect(m!.get(date), date).toBeUndefined();
          continue;
        }
        worn++;
        expect(Number(steps!.get(date).countSum), date).toBe(d.steps);
        expect(Number(distance!.get(date).millimetersSum) / 1_000_000, date).toBe(d.distanceKm);
        expect(Number(floors!.get(date)?.countSum ?? 0), date).toBe(d.floors);
        expect(
          Math.round((Number(altitude!.get(date)?.gainMillimetersSum ?? 0) / 1000) * 100) / 100,
          date,
        ).toBe(Math.round(d.floors * 3.048 * 100) / 100);
        const byLevel = Object.fromEntries(
          levels!
            .get(date)
            .activityLevelRollupsByActivityLevelType.map((x: Json) => [
              x.activityLevelType,
              Number(String(x.totalDuration).replace('s', '')) / 60,
            ]),
        );
        expect(byLevel, date).toEqual({
          SEDENTARY: d.minutesSedentary,
          LIGHTLY_ACTIVE: d.minutesLightlyActive,
          ...(d.minutesFairlyActive && { MODERATELY_ACTIVE: d.minutesFairlyActive }),
          ...(d.minutesVeryActive && { VERY_ACTIVE: d.minutesVeryActive }),
        });
        const am = Object.fromEntries(
          active!
            .get(date)
            .activeMinutesRollupByActivityLevel.map((x: Json) => [
              x.activityLevel,
              Number(x.activeMinutesSum),
            ]),
        );
        expect(am.LIGHT, date).toBe(d.minutesLightlyActive);
        expect(am.MODERATE ?? 0, date).toBe(d.minutesFairlyActive);
        expect(am.VIGOROUS ?? 0, date).toBe(d.minutesVeryActive);
      }
      expect(worn).toBeGreaterThan(20);
    });

    it('activity calories, food and water: active-energy-burned = calories − BMR; nutrition and hydration logs', async () => {
      const [active, food, water] = await Promise.all(
        ['active-energy-burned', 'nutrition-log', 'hydration-log'].map(daily),
      );
      for (const date of DAYS) {
        const d = fitbitDay(legacy, date);
        expect(active!.get(date)?.kcalSum ?? 0, date).toBe(d.calories - d.caloriesBMR);
        expect(food!.get(date)?.energy.kcalSum ?? 0, date).toBe(d.caloriesIn);
        expect(water!.get(date)?.amountConsumed.millilitersSum ?? 0, date).toBe(d.waterMl);
      }
      const logs = await listAll(sim, token, 'nutrition-log', {
        filter: `nutrition_log.interval.civil_start_time >= "${FIRST}" AND nutrition_log.interval.civil_start_time < "${addDays(LAST, 1)}"`,
      });
      for (const p of logs.points) {
        const date = dateOf(p.nutritionLog.interval.civilStartTime.date);
        expect(p.name).toBe(
          `users/${healthUserId}/dataTypes/nutrition-log/dataPoints/${Date.parse(`${date}T08:00:00Z`)}`,
        );
        expect(p.nutritionLog).toMatchObject({
          foodDisplayName: 'Daily meals',
          energy: { kcal: fitbitDay(legacy, date).caloriesIn },
        });
      }
    });

    it('exercise: the legacy auto-detected walks, same id, start, duration, steps, distance and calories', async () => {
      const { points } = await listAll(sim, token, 'exercise', {
        filter: `exercise.interval.civil_start_time >= "${FIRST}" AND exercise.interval.civil_start_time < "${addDays(LAST, 1)}"`,
      });
      const expected = DAYS.map((d) => fitbitActivityLog(legacy, d)).filter((x) => x !== null);
      expect(points.length).toBe(expected.length);
      for (const log of expected) {
        const p = points.find((x: Json) => x.name.endsWith(`/${log!.logId}`));
        expect(p, String(log!.logId)).toBeDefined();
        const e = p.exercise;
        expect(civilText(e.interval.civilStartTime)).toBe(log!.startTime.slice(0, 19));
        expect(Date.parse(e.interval.endTime) - Date.parse(e.interval.startTime)).toBe(log!.duration);
        expect(e).toMatchObject({
          exerciseType: 'WALKING',
          displayName: 'Walk',
          activeDuration: `${log!.activeDuration / 1000}s`,
        });
        expect(e.metricsSummary).toEqual({
          caloriesKcal: log!.calories,
          distanceMillimeters: String(Math.round(log!.distance * 1_000_000)),
          steps: String(log!.steps),
          averageHeartRateBeatsPerMinute: String(log!.averageHeartRate),
        });
        const got = await api(sim, token, `/v4/users/me/dataTypes/exercise/dataPoints/${log!.logId}`);
        expect(got.body).toEqual(p);
      }
    });

    it('calories per minute: never negative active energy, every day sums exactly (3 people, 120 days)', () => {
      const people = new People();
      for (const seed of ['A1', 'B2', 'C3']) {
        const person = people.forLegacy(fitbitUserId(`${LEGACY_CLIENT}:${seed}`));
        const tz = fitbitUserTimezone(person.dataUserId).tz;
        for (let i = 0; i < 120; i++) {
          const date = addDays('2026-08-01', i);
          const d = fitbitDay(person.dataUserId, date);
          const minutes = calorieCents({ person, date, tz, config: GOOGLE_HEALTH_DEFAULT });
          expect(minutes.every((m) => m.active >= 0 && m.total > 0)).toBe(true);
          expect(minutes.reduce((n, m) => n + m.total, 0)).toBe(d.calories * 100);
          expect(minutes.reduce((n, m) => n + m.active, 0)).toBe((d.calories - d.caloriesBMR) * 100);
        }
      }
    });

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
        expect(hrv!.get(date).averageHeartRateVariabilityMilliseconds, date).toBe(d.hrv!.dailyRmssd);
        expect(hrv!.get(date).deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds, date).toBe(
          d.hrv!.deepRmssd,
        );
        expect(spo2!.get(date).averagePercentage, date).toBe(d.spo2!.avg);
        expect(br!.get(date).breathsPerMinute, date).toBe(d.breathingRate);
        const low = Number(d.vo2Max!.split('-')[0]);
        expect(vo2!.get(date), date).toMatchObject({ vo2Max: low + 2, estimated: true });
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

    it('time across the DST change: each point carries the offset in force, civil times are wall-clock times', async () => {
      // The night 2026-10-31 → 11-01 crosses the change (02:00 EDT → 01:00 EST).
      const { points } = await listAll(sim, token, 'sleep', {
        filter:
          'sleep.interval.civil_end_time >= "2026-11-01" AND sleep.interval.civil_end_time < "2026-11-02"',
      });
      const s = fitbitDay(legacy, '2026-11-01').sleep;
      if (s) {
        const i = points[0].sleep.interval;
        expect(i.startUtcOffset).toBe('-14400s');
        expect(i.endUtcOffset).toBe('-18000s');
        expect(Date.parse(i.endTime) - Date.parse(i.startTime)).toBe((s.minutesAsleep + s.wake) * 60_000);
      }
      // Steps on either side of the change: local 12:xx is 16:xx UTC before, 17:xx UTC after.
      for (const [date, offset] of [
        ['2026-10-31', '-14400s'],
        ['2026-11-02', '-18000s'],
      ] as const) {
        const { points: pts } = await listAll(sim, token, 'steps', {
          filter: `steps.interval.civil_start_time >= "${date}" AND steps.interval.civil_start_time < "${addDays(date, 1)}"`,
        });
        if (!fitbitDay(legacy, date).worn) continue;
        expect(pts.length).toBeGreaterThan(0);
        for (const p of pts) {
          const i = p.steps.interval;
          expect(i.startUtcOffset).toBe(offset);
          const shift = Number(offset.replace('s', '')) * 1000;
          expect(civilText(i.civilStartTime)).toBe(
            new Date(Date.parse(i.startTime) + shift).toISOString().slice(0, 19),
          );
          expect(dateOf(i.civilStartTime.date)).toBe(date);
        }
        // Newest first.
        const starts = pts.map((p: Json) => Date.parse(p.steps.interval.startTime));
        expect([...starts].sort((a, b) => b - a)).toEqual(starts);
      }
    });

    it('daily roll-ups cut days at the user’s local midnight, not at UTC midnight', async () => {
      // A day with steps after 20:00 local (past midnight UTC in New York).
      const date = DAYS.find((d) =>
        fitbitIntradaySteps(legacy, d)
          .slice(20 * 60)
          .some((s) => s > 0),
      )!;
      const tz = 'America/New_York';
      // rollUp over the local day (physical windows) = dailyRollUp of that date; over the UTC day it differs.
      const sumOver = async (start: number, end: number) => {
        const r = await api(sim, token, '/v4/users/me/dataTypes/steps/dataPoints:rollUp', {
          range: { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString() },
          windowSize: '3600s',
        });
        return r.body.rollupDataPoints.reduce((n: number, w: Json) => n + Number(w.steps?.countSum ?? 0), 0);
      };
      const local = await sumOver(
        instantOfLocal(tz, `${date}T00:00`),
        instantOfLocal(tz, `${addDays(date, 1)}T00:00`),
      );
      expect(local).toBe(fitbitDay(legacy, date).steps);
      const utc = await sumOver(Date.parse(`${date}T00:00:00Z`), Date.parse(`${addDays(date, 1)}T00:00:00Z`));
      expect(utc).not.toBe(local);
      // Steps late in the local evening are on the next UTC date but count for the local date.
      const { points } = await listAll(sim, token, 'steps', {
        filter: `steps.interval.civil_start_time >= "${date}T20:00:00" AND steps.interval.civil_start_time < "${addDays(date, 1)}"`,
      });
      for (const p of points) {
        expect(p.steps.interval.startTime.slice(0, 10)).toBe(addDays(date, 1));
        expect(dateOf(p.steps.interval.civilStartTime.date)).toBe(date);
      }
    });

    it('a participant whose profile time zone changes mid-period keeps correct local dates', async () => {
      const t = await link(sim, stateIn('America/New_York', 1)!);
      const id = (await api(sim, t.access_token, '/v4/users/me/identity')).body;
      const person = id.legacyUserId as string;
      // Moves to Tokyo on 2026-11-05 at 12:00 UTC (after this, days begin at Tokyo midnight).
      await control(sim, 'time-zone', {
        userId: id.healthUserId,
        timeZone: 'Asia/Tokyo',
        from: '2026-11-05T12:00:00Z',
      });
      sim.clock.set(new Date('2026-11-05T11:00:00Z'));
      expect((await api(sim, t.access_token, '/v4/users/me/settings')).body).toMatchObject({
        timeZone: 'America/New_York',
        utcOffset: '-18000s',
      });
      sim.clock.set(new Date('2026-11-20T12:00:00Z'));
      expect((await api(sim, t.access_token, '/v4/users/me/settings')).body).toMatchObject({
        timeZone: 'Asia/Tokyo',
        utcOffset: '32400s',
      });
      const r = await api(sim, t.access_token, '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
        range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-11') } },
      });
      for (const p of r.body.rollupDataPoints) {
        const date = dateOf(p.civilStartTime.date);
        const d = fitbitDay(person, date);
        expect(p.steps ? Number(p.steps.countSum) : 0, date).toBe(d.steps);
      }
      for (const [date, offset] of [
        ['2026-11-04', '-18000s'],
        ['2026-11-07', '32400s'],
      ] as const) {
        if (!fitbitDay(person, date).worn) continue;
        const { points } = await listAll(sim, t.access_token, 'steps', {
          filter: `steps.interval.civil_start_time >= "${date}" AND steps.interval.civil_start_time < "${addDays(date, 1)}"`,
        });
        expect(points.length).toBeGreaterThan(0);
        for (const p of points) {
          expect(p.steps.interval.startUtcOffset).toBe(offset);
          expect(dateOf(p.steps.interval.civilStartTime.date)).toBe(date);
        }
      }
      const person2 = await fetch(`${sim.base}/_control/person?userId=${id.healthUserId}`);
      expect(((await person2.json()) as Json).zones).toEqual([
        { from: null, timeZone: 'America/New_York' },
        { from: '2026-11-05T12:00:00.000Z', timeZone: 'Asia/Tokyo' },
      ]);
    });

    it('paired devices: the legacy devices with battery, type and last sync as a UTC instant', async () => {
      const r = await api(sim, token, '/v4/users/me/pairedDevices');
      expect(r.status).toBe(200);
      const { fitbitDevices } = await import('../fitbit/fitbit-data.js');
      const legacyDevices = fitbitDevices(legacy, sim.clock.now());
      expect(r.body.pairedDevices.length).toBe(legacyDevices.length);
      for (const [i, d] of legacyDevices.entries()) {
        const g = r.body.pairedDevices[i];
        expect(g).toMatchObject({
          name: `users/me/pairedDevices/${d.id}`,
          deviceType: d.type,
          batteryStatus: d.battery,
          batteryLevel: d.batteryLevel,
          deviceVersion: d.deviceVersion,
          macAddress: d.mac,
        });
        expect(g.lastSyncTime).toMatch(/Z$/);
        expect(new Date(Date.parse(g.lastSyncTime) - 5 * 3_600_000).toISOString().slice(0, 23)).toBe(
          d.lastSyncTime,
        );
      }
      await control(sim, 'user', {
        userId: healthUserId,
        tracker: { batteryLevel: 3, batteryStatus: 'Empty', lastSyncTime: '2026-11-19T08:00:00Z' },
      });
      const after = await api(sim, token, '/v4/users/me/pairedDevices?pageSize=1');
      expect(after.body.pairedDevices).toHaveLength(1);
      expect(after.body.pairedDevices[0]).toMatchObject({
        batteryLevel: 3,
        batteryStatus: 'Empty',
        lastSyncTime: '2026-11-19T08:00:00Z',
      });
      const one = await api(
        sim,
        token,
        `/v4/users/me/pairedDevices/${after.body.pairedDevices[0].name.split('/').pop()}`,
      );
      expect(one.body).toEqual(after.body.pairedDevices[0]);
      expect((await api(sim, token, '/v4/users/me/pairedDevices/999')).status).toBe(404);
    });
  },
);
