import { kgToLb, kmToMiles, parseFitbitTrackerPath } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { pathsFor, rowsFor, subjectKeys } from './fitbit-subjects';
import { periodRange } from './periods';
import { parseTrackerQuery, trackerSearch } from './tracker-query';

describe('Fitbit subjects', () => {
  it('builds only paths the contract’s allow-list accepts, for every subject and the longest period', () => {
    const { start, end } = periodRange('1y', '2026-11-22');
    for (const s of subjectKeys) {
      const paths = pathsFor(s, s === 'vo2Max' ? '2026-10-24' : start, end);
      expect(paths.length).toBeGreaterThan(0);
      for (const p of paths) expect(parseFitbitTrackerPath(p), p).not.toBeNull();
    }
    // A year is one request even where Fitbit allows fewer days per call (sleep 100): the server
    // reads the windows one after the other, the page never fans out (issue #21).
    expect(pathsFor('duration', start, end)).toHaveLength(1);
    expect(pathsFor('totalTrackerActiveMinutes', '2026-11-16', '2026-11-22')).toEqual([
      '/activities/tracker/minutesLightlyActive/date/2026-11-16/2026-11-22.json',
      '/activities/tracker/minutesFairlyActive/date/2026-11-16/2026-11-22.json',
      '/activities/tracker/minutesVeryActive/date/2026-11-16/2026-11-22.json',
    ]);
  });

  it('weight: the time series, a year in ONE provider call (the period form), up to 31 days the range', () => {
    const end = '2026-11-22';
    const one = (start: string) => {
      const paths = pathsFor('weight', start, end);
      expect(paths).toHaveLength(1);
      // One provider call: the path is its own only window.
      expect(parseFitbitTrackerPath(paths[0]!)?.windows).toEqual(paths);
      return paths[0];
    };
    expect(one(periodRange('1y', end).start)).toBe(`/body/weight/date/${end}/1y.json`);
    expect(one(periodRange('6m', end).start)).toBe(`/body/weight/date/${end}/6m.json`);
    expect(one(periodRange('3m', end).start)).toBe(`/body/weight/date/${end}/3m.json`);
    // Custom dates: the smallest period ending at the end that covers the start.
    expect(one('2026-10-22')).toBe(`/body/weight/date/${end}/3m.json`); // 32 days
    expect(one('2026-08-22')).toBe(`/body/weight/date/${end}/6m.json`); // one day over 3 months
    expect(one('2025-11-22')).toBe(`/body/weight/date/${end}/max.json`); // one day over a year
    // Up to 31 days: exactly the range.
    expect(one(periodRange('1m', end).start)).toBe(`/body/weight/date/2026-10-23/${end}.json`);
    expect(one(periodRange('7d', end).start)).toBe(`/body/weight/date/2026-11-16/${end}.json`);
    expect(one(end)).toBe(`/body/weight/date/${end}/${end}.json`);
  });

  it('weight rows: the range only (days before the start dropped), a day without a weighing empty', () => {
    const body = {
      'body-weight': [
        { dateTime: '2026-08-22', value: '70.1' },
        { dateTime: '2026-08-23', value: '80.3' },
        { dateTime: '2026-08-24', value: '0' },
        { dateTime: '2026-08-25', value: '79.9' },
      ],
    };
    expect(rowsFor('weight', '2026-08-23', '2026-08-25', [body])).toEqual([
      { date: '2026-08-23', value: kgToLb(80.3) },
      { date: '2026-08-24', value: null },
      { date: '2026-08-25', value: kgToLb(79.9) },
    ]);
  });

  it('reads Fitbit’s JSON per local date, converting at display only', () => {
    const dist = { 'activities-distance': [{ dateTime: '2026-11-21', value: '5.123' }] };
    expect(rowsFor('distance', '2026-11-21', '2026-11-22', [dist])).toEqual([
      { date: '2026-11-21', value: kmToMiles(5.123) },
      { date: '2026-11-22', value: null },
    ]);
    const weight = { 'body-weight': [{ dateTime: '2026-11-22', value: '80.3' }] };
    expect(rowsFor('weight', '2026-11-22', '2026-11-22', [weight])[0]?.value).toBe(kgToLb(80.3));
    const active = ['minutesLightlyActive', 'minutesFairlyActive', 'minutesVeryActive'].map((r, i) => ({
      [`activities-tracker-${r}`]: [{ dateTime: '2026-11-22', value: String(10 * (i + 1)) }],
    }));
    expect(rowsFor('totalTrackerActiveMinutes', '2026-11-22', '2026-11-22', active)[0]?.value).toBe(60);
    const sleep = {
      sleep: [
        { dateOfSleep: '2026-11-22', minutesAsleep: 400 },
        { dateOfSleep: '2026-11-22', minutesAsleep: 30 },
      ],
    };
    expect(rowsFor('duration', '2026-11-22', '2026-11-22', [sleep])[0]?.value).toBe(430);
    const water = { 'foods-log-water': [{ dateTime: '2026-11-22', value: '1500' }] };
    expect(rowsFor('water', '2026-11-22', '2026-11-22', [water])[0]?.value).toBe(50.7);
    const vo2 = { cardioScore: [{ dateTime: '2026-11-22', value: { vo2Max: '44-48' } }] };
    expect(rowsFor('vo2Max', '2026-11-22', '2026-11-22', [vo2])[0]).toEqual({
      date: '2026-11-22',
      value: 46,
      text: '44-48',
    });
  });

  it('keeps the query in the URL, the subject deciding the category', () => {
    const q = parseTrackerQuery(new URLSearchParams('subject=steps&period=1m'));
    expect(q).toMatchObject({ category: 'activities', subject: 'steps', period: '1m' });
    expect(parseTrackerQuery(new URLSearchParams(trackerSearch(q)))).toEqual(q);
    expect(parseTrackerQuery(new URLSearchParams(''))).toMatchObject({ category: 'overview', period: '7d' });
    // 30 Days is VO2 max's only.
    expect(parseTrackerQuery(new URLSearchParams('subject=steps&period=30d')).period).toBe('7d');
  });
});
