import { kgToLb, kmToMiles, parseFitbitResourcePath, parseFitbitTrackerPath } from '@trialwear/contract';
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
    // A year is one request even where Fitbit allows fewer days per call (weight logs 31, sleep 100):
    // the server reads the windows one after the other, the page never fans out (issue #21).
    expect(pathsFor('weight', start, end)).toEqual([`/body/log/weight/date/${start}/${end}.json`]);
    expect(parseFitbitResourcePath(pathsFor('weight', start, end)[0]!)).toBeNull();
    expect(parseFitbitTrackerPath(pathsFor('weight', start, end)[0]!)?.windows).toHaveLength(12);
    expect(pathsFor('duration', start, end)).toHaveLength(1);
    expect(pathsFor('totalTrackerActiveMinutes', '2026-11-16', '2026-11-22')).toEqual([
      '/activities/tracker/minutesLightlyActive/date/2026-11-16/2026-11-22.json',
      '/activities/tracker/minutesFairlyActive/date/2026-11-16/2026-11-22.json',
      '/activities/tracker/minutesVeryActive/date/2026-11-16/2026-11-22.json',
    ]);
  });

  it('reads Fitbit’s JSON per local date, converting at display only', () => {
    const dist = { 'activities-distance': [{ dateTime: '2026-11-21', value: '5.123' }] };
    expect(rowsFor('distance', '2026-11-21', '2026-11-22', [dist])).toEqual([
      { date: '2026-11-21', value: kmToMiles(5.123) },
      { date: '2026-11-22', value: null },
    ]);
    const weight = { weight: [{ date: '2026-11-22', weight: 80.3, time: '07:38:14' }] };
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
