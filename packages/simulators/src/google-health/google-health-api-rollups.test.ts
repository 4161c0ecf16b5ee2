/*
 * Conformance of the Google Health simulator's REST surface with
 * google-health-api.md §3–§4, over real HTTP: rollUp (windows, no value
 * without data, range limits per type, paging) and dailyRollUp (request
 * shape, limits, JSON errors).
 */
import { describe, expect, it } from 'vitest';
import { fitbitDay } from '../fitbit/fitbit-daily.js';
import { expectError, legacy, sim, token, useRestSuite } from './rest-suite.js';
import { api, control, gdate, type Json } from './test-kit.js';

describe('Google Health simulator: REST surface, roll-ups', { timeout: 30_000 }, () => {
  useRestSuite();

  it('rollUp: windows in order, no value where there is no data, range limits per type, paging', async () => {
    const body = (type: string, start: string, end: string, extra: object = {}) =>
      api(sim, token, `/v4/users/me/dataTypes/${type}/dataPoints:rollUp`, {
        range: { startTime: start, endTime: end },
        windowSize: '3600s',
        ...extra,
      });
    const r = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z');
    expect(r.body.rollupDataPoints).toHaveLength(24);
    expect(r.body.rollupDataPoints[0]).toEqual({
      startTime: '2026-11-10T00:00:00Z',
      endTime: '2026-11-10T01:00:00Z',
      ...(r.body.rollupDataPoints[0].steps && { steps: r.body.rollupDataPoints[0].steps }),
    });
    expect(r.body.rollupDataPoints.some((w: Json) => !w.steps)).toBe(true);
    // heart-rate: 14 days at most; steps: 90.
    expectError(
      await body('heart-rate', '2026-10-01T00:00:00Z', '2026-10-16T00:00:00Z'),
      400,
      'INVALID_ARGUMENT',
    );
    expect((await body('steps', '2026-09-01T00:00:00Z', '2026-10-16T00:00:00Z')).status).toBe(200);
    expectError(await body('steps', '2026-07-01T00:00:00Z', '2026-10-16T00:00:00Z'), 400, 'INVALID_ARGUMENT');
    expectError(
      await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', { windowSize: '0.5s' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(await body('steps', '2026-11-10', '2026-11-11'), 400, 'INVALID_ARGUMENT');
    expect((await body('steps', '2026-11-10T00:00:00-05:00', '2026-11-11T00:00:00-05:00')).status).toBe(200);
    // Paging over windows.
    const p1 = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', { pageSize: 10 });
    expect(p1.body.rollupDataPoints).toHaveLength(10);
    const p2 = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', {
      pageSize: 10,
      pageToken: p1.body.nextPageToken,
    });
    expect(p2.body.rollupDataPoints[0].startTime).toBe('2026-11-10T10:00:00Z');
    const p3 = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', {
      pageSize: 10,
      pageToken: p2.body.nextPageToken,
    });
    expect(p3.body.rollupDataPoints).toHaveLength(4);
    expect(p3.body.nextPageToken).toBeUndefined();
    // No roll-up for sleep.
    const sleep = await body('sleep', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z');
    expect(expectError(sleep, 400, 'INVALID_ARGUMENT')).toBe(
      'Rollup is not supported for data type sleep, but the following actions are supported: list, reconcile',
    );
  });

  it('dailyRollUp request shape: nested dates, exclusive end, 14 days, no pageSize (as live), JSON errors', async () => {
    const call = (b: unknown) => api(sim, token, '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', b);
    const ok = await call({
      range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-15') } },
    });
    expect(ok.body.rollupDataPoints).toHaveLength(14);
    expect(
      expectError(
        await call({
          range: { start: { year: 2026, month: 11, day: 1 }, end: { date: gdate('2026-11-02') } },
        }),
        400,
        'INVALID_ARGUMENT',
      ),
    ).toBe('Invalid JSON payload received. Unknown name "year" at \'range.start\': Cannot find field.');
    expectError(
      await call({ range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-16') } } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(
      expectError(
        await call({
          range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-02') } },
          pageSize: 10,
        }),
        400,
        'INVALID_ARGUMENT',
      ),
    ).toBe('Invalid argument in request');
    const octal = await call(
      '{"range":{"start":{"date":{"year":2026,"month":08,"day":1}},"end":{"date":{"year":2026,"month":8,"day":2}}}}',
    );
    expect(expectError(octal, 400, 'INVALID_ARGUMENT')).toMatch(/^Invalid JSON payload received\./);
    // Windows of several days.
    const weeks = await call({
      range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-15') } },
      windowSizeDays: 7,
    });
    expect(weeks.body.rollupDataPoints.map((p: Json) => p.civilStartTime.date.day)).toEqual([1, 8]);
    const week = Array.from({ length: 7 }, (_, i) => fitbitDay(legacy, `2026-11-0${i + 1}`).steps).reduce(
      (a, b) => a + b,
      0,
    );
    expect(Number(weeks.body.rollupDataPoints[0].steps.countSum)).toBe(week);
    // The proto's limits and pageSize, when configured so.
    await control(sim, 'config', { dailyRollUpMaxDays: 'proto', dailyRollUpAcceptsPageSize: true });
    expect(
      (
        await call({
          range: { start: { date: gdate('2026-09-01') }, end: { date: gdate('2026-11-01') } },
          pageSize: 10,
        })
      ).status,
    ).toBe(200);
    // Daily types: the personal range, not the daily value.
    const rhr = await api(
      sim,
      token,
      '/v4/users/me/dataTypes/daily-resting-heart-rate/dataPoints:dailyRollUp',
      {
        range: { start: { date: gdate('2026-11-10') }, end: { date: gdate('2026-11-11') } },
      },
    );
    expect(Object.keys(rhr.body.rollupDataPoints[0].dailyRestingHeartRate)).toEqual([
      'restingHeartRatePersonalRange',
    ]);
  });
});
