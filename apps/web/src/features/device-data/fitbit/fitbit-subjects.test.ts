import { kgToLb, kmToMiles, parseFitbitTrackerPath, type Series } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { type FitbitSubjectKey, pathsFor, rowsFor, subjectKeys } from './fitbit-subjects';
import { periodRange } from './periods';
import { parseTrackerQuery, trackerSearch } from './tracker-query';

const ACTIVE_METRICS = ['minutes_lightly_active', 'minutes_fairly_active', 'minutes_very_active'] as const;

/** A daily series as the server answers it (decision 030): days of one metric in provider units. */
const daily = (
  metric: string,
  unit: string,
  days: Array<[string, number | null, string?]>,
  request = `/${metric}`,
): Series => ({
  metric,
  unit,
  timeZone: 'America/New_York',
  days: days.map(([date, value, text]) => ({ date, value, ...(text !== undefined ? { text } : {}) })),
  source: { provider: 'fitbit', requests: [request] },
});

/** Sleep points: one per sleep, `date` the day it ends (Fitbit's dateOfSleep), identified by its log id. */
const sleepSeries = (
  metric: 'sleep_duration' | 'sleep_stages',
  sleeps: Array<{ logId: number; date: string; value: number | null; at?: string }>,
): Series => ({
  metric,
  unit: 'min',
  timeZone: 'UTC',
  points: sleeps.map((p) => ({
    at: p.at ?? `${p.date}T00:00:00Z`,
    date: p.date,
    time: (p.at ?? `${p.date}T00:00:00Z`).slice(11, 19),
    offsetMinutes: 0,
    value: metric === 'sleep_stages' ? null : p.value,
    detail: { logId: p.logId, isMainSleep: p.logId !== 3 },
  })),
  source: { provider: 'fitbit', requests: ['/sleep'] },
});

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
    // The provider module answers Fitbit's "0" (no weighing) as null: it stays null, never 0 lb.
    const body = [
      daily('weight', 'kg', [
        ['2026-08-22', 70.1],
        ['2026-08-23', 80.3],
        ['2026-08-24', null],
        ['2026-08-25', 79.9],
      ]),
    ];
    expect(rowsFor('weight', '2026-08-23', '2026-08-25', [body])).toEqual([
      { date: '2026-08-23', value: kgToLb(80.3) },
      { date: '2026-08-24', value: null },
      { date: '2026-08-25', value: kgToLb(79.9) },
    ]);
  });

  it('reads the answers’ series per local date, converting at display only', () => {
    const dist = [daily('distance', 'km', [['2026-11-21', 5.123]])];
    expect(rowsFor('distance', '2026-11-21', '2026-11-22', [dist])).toEqual([
      { date: '2026-11-21', value: kmToMiles(5.123) },
      { date: '2026-11-22', value: null },
    ]);
    const weight = [daily('weight', 'kg', [['2026-11-22', 80.3]])];
    expect(rowsFor('weight', '2026-11-22', '2026-11-22', [weight])[0]?.value).toBe(kgToLb(80.3));
    const active = ACTIVE_METRICS.map((m, i) => [daily(m, 'min', [['2026-11-22', 10 * (i + 1)]])]);
    expect(rowsFor('totalTrackerActiveMinutes', '2026-11-22', '2026-11-22', active)[0]?.value).toBe(60);
    const sleep = [
      sleepSeries('sleep_duration', [
        { logId: 1, date: '2026-11-22', value: 400 },
        { logId: 2, date: '2026-11-22', value: 30 },
      ]),
    ];
    expect(rowsFor('duration', '2026-11-22', '2026-11-22', [sleep])[0]?.value).toBe(430);
    const water = [daily('water', 'ml', [['2026-11-22', 1500]])];
    expect(rowsFor('water', '2026-11-22', '2026-11-22', [water])[0]?.value).toBe(50.7);
    const vo2 = [daily('cardio_score', 'mL/kg/min', [['2026-11-22', 46, '44-48']])];
    expect(rowsFor('vo2Max', '2026-11-22', '2026-11-22', [vo2])[0]).toEqual({
      date: '2026-11-22',
      value: 46,
      text: '44-48',
    });
  });

  it('active minutes: the three series summed per date, a day missing or without a number in one of them', () => {
    const [light, fairly, very] = ACTIVE_METRICS;
    const answers = [
      [
        daily(light, 'min', [
          ['2026-11-20', 10],
          ['2026-11-21', null],
          ['2026-11-22', null],
        ]),
      ],
      // 2026-11-20 not listed in this one.
      [
        daily(fairly, 'min', [
          ['2026-11-21', null],
          ['2026-11-22', 4],
        ]),
      ],
      [
        daily(very, 'min', [
          ['2026-11-20', 5],
          ['2026-11-21', null],
          ['2026-11-22', 0],
        ]),
      ],
    ];
    expect(rowsFor('totalTrackerActiveMinutes', '2026-11-19', '2026-11-22', answers)).toEqual([
      { date: '2026-11-19', value: null }, // listed by none
      { date: '2026-11-20', value: 15 },
      { date: '2026-11-21', value: null }, // listed, no number anywhere
      { date: '2026-11-22', value: 4 },
    ]);
  });

  it('daily subjects read their own metric: steps, floors, calories in, resting heart rate, SpO2', () => {
    const d = '2026-11-22';
    const one = (subject: FitbitSubjectKey, series: Series) => rowsFor(subject, d, d, [[series]])[0]?.value;
    expect(one('steps', daily('steps', 'steps', [[d, 0]]))).toBe(0); // a "0" day stays 0
    expect(one('floors', daily('floors', 'floors', [[d, 7]]))).toBe(7);
    expect(one('caloriesIn', daily('calories_in', 'kcal', [[d, 1830]]))).toBe(1830);
    expect(one('restingHeartRate', daily('resting_heart_rate', 'bpm', [[d, 58]]))).toBe(58);
    expect(one('restingHeartRate', daily('resting_heart_rate', 'bpm', [[d, null]]))).toBeNull();
    expect(
      one('spo2', {
        ...daily('spo2', '%', [[d, 95.4]]),
        days: [{ date: d, value: 95.4, detail: { min: 92, max: 98 } }],
      }),
    ).toBe(95.4);
    // Another metric in the answer is not this subject's.
    expect(one('steps', daily('distance', 'km', [[d, 3]]))).toBeNull();
  });

  it('sleep: every sleep of a date summed (naps included) on the point’s date, stages not counted', () => {
    const answer = [
      sleepSeries('sleep_duration', [
        { logId: 1, date: '2026-11-21', value: 420, at: '2026-11-20T23:10:00Z' },
        { logId: 2, date: '2026-11-22', value: 380, at: '2026-11-21T22:40:00Z' },
        { logId: 3, date: '2026-11-22', value: 25, at: '2026-11-22T14:00:00Z' },
        { logId: 4, date: '2026-11-22', value: null, at: '2026-11-22T17:00:00Z' },
      ]),
      sleepSeries('sleep_stages', [
        { logId: 2, date: '2026-11-22', value: null, at: '2026-11-21T22:40:00Z' },
      ]),
    ];
    expect(rowsFor('duration', '2026-11-21', '2026-11-23', [answer])).toEqual([
      { date: '2026-11-21', value: 420 },
      { date: '2026-11-22', value: 405 },
      { date: '2026-11-23', value: null },
    ]);
  });

  it('joins the answers of several windows (a long range) by date', () => {
    const answers = [
      [daily('steps', 'steps', [['2025-11-20', 1000]], '/activities/steps/date/2025-11-20/2025-11-20.json')],
      [daily('steps', 'steps', [['2025-11-21', 2000]], '/activities/steps/date/2025-11-21/2025-11-21.json')],
    ];
    expect(rowsFor('steps', '2025-11-20', '2025-11-21', answers).map((r) => r.value)).toEqual([1000, 2000]);
    // An answer without series (none for this path) is no data.
    expect(rowsFor('steps', '2025-11-20', '2025-11-20', [[]])).toEqual([{ date: '2025-11-20', value: null }]);
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
