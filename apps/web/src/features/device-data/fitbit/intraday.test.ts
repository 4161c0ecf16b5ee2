import type { Series } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { localTimesToUnix } from '../../../components/chart';
import { intradayPaths, readIntraday } from './intraday';

type Point = [at: string, time: string, offsetMinutes: number, value: number | null];

/** An intraday series as the server answers it: each point's instant, local date and time, offset. */
function intraday(metric: string, timeZone: string, date: string, points: Point[]): Series {
  // The fixture itself is consistent: local = UTC + offset.
  for (const [at, time, offset] of points)
    expect(Date.parse(at) + offset * 60_000, `${at} ${time}`).toBe(Date.parse(`${date}T${time}Z`));
  return {
    metric,
    unit: metric === 'steps' ? 'steps' : 'bpm',
    timeZone,
    points: points.map(([at, time, offsetMinutes, value]) => ({ at, date, time, offsetMinutes, value })),
    source: { provider: 'fitbit', requests: [`/activities/heart/date/${date}/1d/1min.json`] },
  };
}

const times = (points: Point[]) => points.map((p) => p[1]);

describe('one day’s intraday series', () => {
  it('builds only allow-listed paths, with and without a time window', () => {
    expect(intradayPaths('2026-11-21', '1sec')).toEqual({
      heart: '/activities/heart/date/2026-11-21/1d/1sec.json',
      steps: '/activities/steps/date/2026-11-21/1d/1min.json',
    });
    expect(intradayPaths('2026-11-21', '1min', '08:00', '10:00').heart).toBe(
      '/activities/heart/date/2026-11-21/1d/1min/time/08:00/10:00.json',
    );
  });

  it('reads the points of its metric: x the instant in seconds, values as given', () => {
    const heart = intraday('heart_rate_intraday', 'UTC', '2026-11-21', [
      ['2026-11-21T08:00:00Z', '08:00:00', 0, 71],
      ['2026-11-21T08:01:00Z', '08:01:00', 0, null],
      ['2026-11-21T08:02:00Z', '08:02:00', 0, 73],
    ]);
    const steps = intraday('steps', 'UTC', '2026-11-21', [['2026-11-21T08:00:00Z', '08:00:00', 0, 12]]);
    const hr = readIntraday([heart, steps], 'heart_rate_intraday');
    expect(hr.x).toEqual([
      Date.UTC(2026, 10, 21, 8) / 1000,
      Date.UTC(2026, 10, 21, 8, 1) / 1000,
      Date.UTC(2026, 10, 21, 8, 2) / 1000,
    ]);
    expect(hr.values).toEqual([71, null, 73]);
    expect(readIntraday([heart, steps], 'steps')).toEqual({
      x: [Date.UTC(2026, 10, 21, 8) / 1000],
      values: [12],
    });
    expect(readIntraday([], 'steps')).toEqual({ x: [], values: [] });
    // The day's total of the same metric, as a days-only series beside the points, is not a point.
    const total: Series = { ...steps, points: undefined, days: [{ date: '2026-11-21', value: 12 }] };
    expect(readIntraday([total, steps], 'steps')).toEqual({
      x: [Date.UTC(2026, 10, 21, 8) / 1000],
      values: [12],
    });
  });

  it('spring forward (Europe/London 2026-03-29, 23 hours): the same x as the local times read in the zone', () => {
    const tz = 'Europe/London';
    const date = '2026-03-29';
    const points: Point[] = [
      ['2026-03-29T00:00:00Z', '00:00:00', 0, 60],
      ['2026-03-29T00:59:00Z', '00:59:00', 0, 61],
      // 01:00 GMT is 02:00 BST: the next minute listed is 02:00.
      ['2026-03-29T01:00:00Z', '02:00:00', 60, 62],
      ['2026-03-29T11:00:00Z', '12:00:00', 60, 63],
      ['2026-03-29T22:59:00Z', '23:59:00', 60, 64],
    ];
    const { x } = readIntraday([intraday('heart_rate_intraday', tz, date, points)], 'heart_rate_intraday');
    expect(x).toEqual(localTimesToUnix(date, times(points), tz));
    expect(x[2]! - x[1]!).toBe(60);
    expect(x[4]! - x[0]!).toBe((23 * 60 - 1) * 60);
  });

  it('fall back (America/New_York 2026-11-01, 25 hours): the same x, the repeated hour at its true instants', () => {
    const tz = 'America/New_York';
    const date = '2026-11-01';
    const points: Point[] = [
      ['2026-11-01T04:00:00Z', '00:00:00', -240, 10],
      ['2026-11-01T04:59:00Z', '00:59:00', -240, 11],
      // 01:30 EDT, the first 01:30 of the day.
      ['2026-11-01T05:30:00Z', '01:30:00', -240, 12],
      ['2026-11-01T07:00:00Z', '02:00:00', -300, 13],
      ['2026-11-01T13:00:00Z', '08:00:00', -300, 14],
      ['2026-11-02T04:59:00Z', '23:59:00', -300, 15],
    ];
    const { x } = readIntraday([intraday('steps', tz, date, points)], 'steps');
    expect(x).toEqual(localTimesToUnix(date, times(points), tz));
    expect(x[5]! - x[0]!).toBe((25 * 60 - 1) * 60);

    // The second 01:30 (EST): the local time alone put it on the first one (x going back an hour);
    // the point's instant keeps it an hour later, so x only grows.
    const repeated: Point[] = [
      ['2026-11-01T05:30:00Z', '01:30:00', -240, 1],
      ['2026-11-01T06:30:00Z', '01:30:00', -300, 2],
    ];
    const r = readIntraday([intraday('steps', tz, date, repeated)], 'steps');
    expect(r.x).toEqual([Date.UTC(2026, 10, 1, 5, 30) / 1000, Date.UTC(2026, 10, 1, 6, 30) / 1000]);
    expect(localTimesToUnix(date, times(repeated), tz)).toEqual([r.x[0], r.x[0]]);
  });
});
