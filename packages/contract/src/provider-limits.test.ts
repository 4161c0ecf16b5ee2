import { describe, expect, it } from 'vitest';
import {
  clockTime,
  FITBIT_STITCH_MAX_DAYS,
  fitbitBodyPeriodFor,
  fitbitBodyPeriodStart,
  parseFitbitResourcePath,
  parseFitbitTrackerPath,
} from './device-data-rules.js';
import { syncStatusText } from './participants.js';

describe('long Fitbit ranges (issue #21)', () => {
  it('a path Fitbit takes in one call is its own only window', () => {
    const p = '/activities/steps/date/2026-01-01/2026-12-31.json';
    expect(parseFitbitTrackerPath(p)).toMatchObject({ windows: [p], resource: { kind: 'activity-series' } });
  });

  it("a year of weight logs: Fitbit's 31-day windows, oldest first, covering every day once", () => {
    const r = parseFitbitTrackerPath('/body/log/weight/date/2026-01-01/2026-12-31.json');
    expect(r?.resource.kind).toBe('body-log');
    expect(r?.windows).toHaveLength(12);
    expect(r?.windows[0]).toBe('/body/log/weight/date/2026-01-01/2026-01-31.json');
    expect(r?.windows.at(-1)).toBe('/body/log/weight/date/2026-12-08/2026-12-31.json');
    for (const w of r!.windows) expect(parseFitbitResourcePath(w), w).not.toBeNull();
    // Sleep (100 days) in 4, HRV (30) in 13.
    expect(parseFitbitTrackerPath('/sleep/date/2026-01-01/2026-12-31.json')?.windows).toHaveLength(4);
    expect(parseFitbitTrackerPath('/hrv/date/2026-01-01/2026-12-31.json')?.windows).toHaveLength(13);
  });

  it('refuses what is not stitchable, too long, reversed or not a date', () => {
    expect(FITBIT_STITCH_MAX_DAYS).toBe(366);
    for (const p of [
      '/body/log/weight/date/2025-01-01/2026-12-31.json', // over a year
      '/body/log/weight/date/2026-03-01/2026-02-01.json', // reversed
      '/body/log/weight/date/2026-01-01/2026-02-30.json', // not a date
      '/activities/date/2026-01-01/2026-12-31.json', // one day's summary: no range at all
      '/activities/heart/date/2026-01-01/1d/1min/2026-12-31.json',
    ])
      expect(parseFitbitTrackerPath(p), p).toBeNull();
  });
});

describe('the body time series by period (issue #21 §3)', () => {
  it('is one call for any documented period, days ending at the date', () => {
    const r = parseFitbitTrackerPath('/body/weight/date/2026-11-22/1y.json');
    expect(r?.windows).toEqual(['/body/weight/date/2026-11-22/1y.json']);
    expect(r?.resource).toMatchObject({ kind: 'body-series', start: '2025-11-23', end: '2026-11-22' });
    expect(parseFitbitResourcePath('/body/fat/date/2026-11-22/3m.json')).toMatchObject({
      start: '2026-08-23',
      end: '2026-11-22',
    });
    for (const p of ['1d', '7d', '30d', '1w', '1m', '3m', '6m', '1y', 'max'])
      for (const r of ['weight', 'fat', 'bmi'])
        expect(parseFitbitResourcePath(`/body/${r}/date/2026-11-22/${p}.json`), `${r} ${p}`).not.toBeNull();
  });

  it('refuses other periods, resources and dates', () => {
    for (const p of [
      '/body/weight/date/2026-11-22/2y.json',
      '/body/weight/date/2026-11-22/12m.json',
      '/body/weight/date/today/1y.json',
      '/body/weight/date/2026-02-30/1y.json',
      '/body/height/date/2026-11-22/1y.json',
      '/body/log/weight/date/2026-11-22/1y.json',
      '/body/weight/date/2026-11-22/1y.json?x=1',
    ])
      expect(parseFitbitTrackerPath(p), p).toBeNull();
  });

  it('the smallest period that covers a range ending at its end', () => {
    expect(fitbitBodyPeriodFor('2026-11-16', '2026-11-22')).toBe('7d');
    expect(fitbitBodyPeriodFor('2026-11-15', '2026-11-22')).toBe('30d');
    expect(fitbitBodyPeriodFor('2026-10-22', '2026-11-22')).toBe('3m'); // 32 days
    expect(fitbitBodyPeriodFor('2026-08-23', '2026-11-22')).toBe('3m');
    expect(fitbitBodyPeriodFor('2026-08-22', '2026-11-22')).toBe('6m');
    expect(fitbitBodyPeriodFor('2025-11-23', '2026-11-22')).toBe('1y'); // the page's year
    expect(fitbitBodyPeriodFor('2023-03-01', '2024-02-29')).toBe('1y'); // ... ending on a leap day
    expect(fitbitBodyPeriodFor('2025-11-22', '2026-11-22')).toBe('max');
    expect(fitbitBodyPeriodFor(fitbitBodyPeriodStart('2026-11-22', 'max'), '2026-11-22')).toBe('max');
    expect(fitbitBodyPeriodFor('2023-01-01', '2026-11-22')).toBeNull();
  });
});

describe('provider limit texts', () => {
  it('clock time of an instant in a zone (24 h)', () => {
    expect(clockTime('2026-11-26T19:00:00Z', 'UTC')).toBe('19:00');
    expect(clockTime('2026-07-01T19:00:00Z', 'Europe/Berlin')).toBe('21:00');
  });

  it("the sync badge: 'waiting' says until when; other statuses keep their text", () => {
    expect(syncStatusText({ status: 'waiting', resumesAt: '2026-11-26T19:00:00Z' }, 'UTC')).toBe(
      "waiting for the provider's limit until 19:00",
    );
    expect(syncStatusText({ status: 'error' })).toBe('Sync error');
  });
});
