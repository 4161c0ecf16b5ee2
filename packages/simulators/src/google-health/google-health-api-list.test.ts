/*
 * Conformance of the Google Health simulator's REST surface with
 * google-health-api.md §3–§4, over real HTTP: list paging (newest first,
 * opaque tokens bound to their request, empty pages with a token), sleep
 * restatement and page size, and reconcile.
 */
import { describe, expect, it } from 'vitest';
import { fitbitDay } from '../fitbit/fitbit-daily.js';
import { enc, expectError, legacy, list, sim, token, useRestSuite } from './rest-suite.js';
import { api, control, gdate, type Json, listAll } from './test-kit.js';

describe(
  'Google Health simulator: REST surface, list pages, page tokens, sleep restatement and reconcile',
  { timeout: 30_000 },
  () => {
    useRestSuite();

    it('list pages newest first with opaque tokens; the pages join without gaps or repeats', async () => {
      const filter =
        'heart_rate.sample_time.civil_time >= "2026-11-10T06:00:00" AND heart_rate.sample_time.civil_time < "2026-11-10T12:00"';
      const whole = await listAll(sim, token, 'heart-rate', { filter, pageSize: '10000' });
      const paged = await listAll(sim, token, 'heart-rate', { filter, pageSize: '700' });
      expect(paged.pages).toBeGreaterThan(whole.pages);
      expect(paged.points).toEqual(whole.points);
      const times = whole.points.map((p: Json) => Date.parse(p.heartRate.sampleTime.physicalTime));
      expect(times.length).toBeGreaterThan(1440);
      const civil = whole.points.map((p: Json) => p.heartRate.sampleTime.civilTime);
      expect(civil.every((c: Json) => c.date.day === 10 && c.time.hours >= 6 && c.time.hours < 12)).toBe(
        true,
      );
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(new Set(times).size).toBe(times.length);
      // proto3 JSON: int64 as strings.
      expect(typeof whole.points[0].heartRate.beatsPerMinute).toBe('string');
      // The default page is 1440; more than 10000 is cut to 10000.
      const first = await api(sim, token, list('heart-rate', { filter }));
      expect(first.body.dataPoints).toHaveLength(1440);
      const big = await api(sim, token, list('heart-rate', { filter, pageSize: '50000' }));
      expect(big.body.dataPoints).toHaveLength(Math.min(10000, times.length));
    });

    it('a page token belongs to its request: changing the filter is refused', async () => {
      const filter = 'steps.interval.civil_start_time >= "2026-11-01"';
      const p1 = await api(sim, token, list('steps', { filter, pageSize: '5' }));
      expect(p1.body.nextPageToken).toBeTruthy();
      const other = await api(
        sim,
        token,
        list('steps', {
          filter: 'steps.interval.civil_start_time >= "2026-10-01"',
          pageSize: '5',
          pageToken: p1.body.nextPageToken,
        }),
      );
      expectError(other, 400, 'INVALID_ARGUMENT');
      const bad = await api(sim, token, list('steps', { filter, pageToken: 'garbage' }));
      expectError(bad, 400, 'INVALID_ARGUMENT');
    });

    it('a page can be empty and still carry a nextPageToken: read until the token is absent', async () => {
      await control(sim, 'config', { listScanDays: 1 });
      const filter =
        'weight.sample_time.civil_time >= "2026-10-01" AND weight.sample_time.civil_time < "2026-11-01"';
      const days = Array.from({ length: 31 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
      const weighed = days.filter((d) => fitbitDay(legacy, d).weightKg !== null);
      const r = await listAll(sim, token, 'weight', { filter });
      expect(r.points).toHaveLength(weighed.length);
      expect(r.pages).toBeGreaterThan(weighed.length);
      // The first page (2026-11-01, outside the filter) is empty with a token.
      const first = await api(sim, token, list('weight', { filter }));
      expect(first.body.dataPoints).toBeUndefined();
      expect(first.body.nextPageToken).toBeTruthy();
    });

    it('a sleep is restated: processed:false without stages right after waking, then the stages (configurable)', async () => {
      await control(sim, 'config', { sleepProcessingMinutes: 120 });
      const read = async () => {
        const r = await api(sim, token, list('sleep', { pageSize: '1' }));
        return r.body.dataPoints[0].sleep;
      };
      const latest = await read();
      const end = Date.parse(latest.interval.endTime);
      sim.clock.set(new Date(end + 30 * 60_000));
      const early = await read();
      expect(early.metadata).toEqual({ mainSleep: true });
      expect(early.stages).toBeUndefined();
      expect(early.summary.stagesSummary).toBeUndefined();
      expect(early.summary.minutesAsleep).toBe(latest.summary.minutesAsleep);
      sim.clock.set(new Date(end + 121 * 60_000));
      const later = await read();
      expect(later.metadata).toEqual({ stagesStatus: 'SUCCEEDED', processed: true, mainSleep: true });
      expect(later.stages.length).toBeGreaterThan(4);
    });

    it('sleep pages hold at most 25 sessions', async () => {
      const r = await api(sim, token, list('sleep', { pageSize: '100' }));
      expect(r.body.dataPoints).toHaveLength(25);
      expect(r.body.nextPageToken).toBeTruthy();
    });

    it('reconcile: merged points without dataSource, dataPointName for sleep; an unknown family is refused', async () => {
      await control(sim, 'config', { phoneSteps: true });
      const filter =
        'steps.interval.civil_start_time >= "2026-11-10" AND steps.interval.civil_start_time < "2026-11-11"';
      const raw = await listAll(sim, token, 'steps', { filter });
      const sum = (pts: Json[]) => pts.reduce((n, p) => n + Number(p.steps.count), 0);
      const steps = fitbitDay(legacy, '2026-11-10').steps;
      // Two overlapping sources in list: summing them overcounts.
      const phone = raw.points.filter((p: Json) => p.dataSource.device.formFactor === 'PHONE');
      expect(phone.length).toBeGreaterThan(0);
      expect(phone.length).toBeLessThan(raw.points.length);
      expect(sum(raw.points)).toBeGreaterThan(steps);
      const rec = await api(
        sim,
        token,
        `/v4/users/me/dataTypes/steps/dataPoints:reconcile?filter=${enc(filter)}&pageSize=10000&dataSourceFamily=${enc('users/me/dataSourceFamilies/google-wearables')}`,
      );
      expect(rec.status).toBe(200);
      expect(sum(rec.body.dataPoints)).toBe(steps);
      expect(rec.body.dataPoints[0].dataSource).toBeUndefined();
      // Roll-ups merge sources: the daily total is the tracker's.
      const d = await api(sim, token, '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
        range: { start: { date: gdate('2026-11-10') }, end: { date: gdate('2026-11-11') } },
      });
      expect(Number(d.body.rollupDataPoints[0].steps.countSum)).toBe(steps);
      const sleep = await api(sim, token, '/v4/users/me/dataTypes/sleep/dataPoints:reconcile?pageSize=1');
      expect(sleep.body.dataPoints[0].dataPointName).toMatch(
        /^users\/\d+\/dataTypes\/sleep\/dataPoints\/\d+$/,
      );
      const bad = await api(
        sim,
        token,
        '/v4/users/me/dataTypes/steps/dataPoints:reconcile?dataSourceFamily=users/me/dataSourceFamilies/mine',
      );
      expectError(bad, 400, 'INVALID_ARGUMENT', 'INVALID_DATA_POINT_DATA_SOURCE_FAMILY');
    });
  },
);
