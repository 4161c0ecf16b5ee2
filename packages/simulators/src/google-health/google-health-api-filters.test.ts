/*
 * Conformance of the Google Health simulator's REST surface with
 * google-health-api.md §3–§4, over real HTTP: AIP-160 filters: civil and
 * physical members, and the error reasons of the live API.
 */
import { describe, expect, it } from 'vitest';
import { fitbitDay } from '../fitbit/fitbit-daily.js';
import { expectError, legacy, list, sim, token, useRestSuite } from './rest-suite.js';
import { api, gdate, type Json, listAll } from './test-kit.js';

describe('Google Health simulator: REST surface, filters', { timeout: 30_000 }, () => {
  useRestSuite();

  it('filters: civil and physical members select by the user’s wall clock or by the instant', async () => {
    const date = '2026-11-10';
    const civil = await listAll(sim, token, 'steps', {
      filter: `steps.interval.civil_start_time >= "${date}" AND steps.interval.civil_start_time < "2026-11-11"`,
    });
    const physical = await listAll(sim, token, 'steps', {
      filter: `steps.interval.start_time >= "${date}T00:00:00Z" AND steps.interval.start_time < "2026-11-11T00:00:00Z"`,
    });
    const sum = (pts: Json[]) => pts.reduce((n, p) => n + Number(p.steps.count), 0);
    expect(sum(civil.points)).toBe(fitbitDay(legacy, date).steps);
    for (const p of physical.points) expect(p.steps.interval.startTime.slice(0, 10)).toBe(date);
    for (const p of civil.points) expect(p.steps.interval.civilStartTime.date).toEqual(gdate(date));
    // Sleep accepts OR.
    const or = await api(
      sim,
      token,
      list('sleep', {
        filter:
          'sleep.interval.civil_end_time < "2026-11-02" OR sleep.interval.civil_end_time >= "2026-11-19"',
        pageSize: '25',
      }),
    );
    expect(or.status).toBe(200);
  });

  it('filter errors carry the live API’s reasons', async () => {
    const cases: Array<[string, string, string, string?]> = [
      [
        'sleep',
        'sleep.interval.start_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_DATA_TYPE_MEMBER',
        "Member 'sleep.start_time' is not supported for filtering.",
      ],
      [
        'daily-resting-heart-rate',
        'daily_resting_heart_rate.interval.start_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_DATA_TYPE_MEMBER',
      ],
      [
        'steps',
        'steps.interval.civil_start_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_CIVIL_DATE_TIME_FORMAT',
      ],
      ['steps', 'steps.interval.startTime >= "2026-11-01T00:00:00Z"', 'INVALID_DATA_POINT_FILTER'],
      [
        'steps',
        'steps.interval.start_time >= "2026-11-01T00:00:00Z" and steps.interval.start_time < "2026-11-02T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_SYNTAX',
      ],
      ['steps', 'steps.interval.start_time >= 2026', 'INVALID_DATA_POINT_FILTER_UNEXPECTED_TOKEN'],
      ['steps', 'steps.interval.start_time >=', 'INVALID_DATA_POINT_FILTER_UNEXPECTED_END_OF_INPUT'],
      [
        'steps',
        'steps.interval.start_time = "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_RESTRICTION_COMPARABLE',
      ],
      [
        'steps',
        'heart_rate.sample_time.physical_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_DATA_TYPE_RESTRICTION',
      ],
      ['steps', 'steps.interval.start_time >= "2026-11-01" ', 'INVALID_FILTER_FORMAT'],
      [
        'steps',
        'steps.interval.start_time >= "2026-11-01T00:00:00Z" OR steps.interval.start_time < "2026-11-02T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_EXPRESSION_STRUCTURE',
      ],
      [
        'daily-oxygen-saturation',
        'daily_oxygen_saturation.date >= "2026-11-01T00:00:00"',
        'INVALID_DATA_POINT_FILTER_CIVIL_DATE_TIME_FORMAT',
      ],
    ];
    for (const [type, filter, reason, message] of cases) {
      const r = await api(sim, token, list(type, { filter }));
      const m = expectError(r, 400, 'INVALID_ARGUMENT', reason);
      if (message) expect(m).toBe(message);
    }
  });
});
