import type { Series } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { legacyToSeries } from './legacy-series.js';

const read = (path: string, body: unknown, tz = 'Europe/London') =>
  legacyToSeries(
    { resource: 'tracker', params: { path } },
    { request: `/1/user/-${path}`, status: 200, headers: {}, body },
    tz,
  );
const only = (set: { series: Series[] }, metric: string) => set.series.find((s) => s.metric === metric)!;

describe('the legacy Fitbit Web API as normalized series', () => {
  it('an activity series: every listed day, strings as numbers, "0" kept as 0, the unit and the request', () => {
    const set = read('/activities/distance/date/2026-03-01/2026-03-02.json', {
      'activities-distance': [
        { dateTime: '2026-03-01', value: '3.21' },
        { dateTime: '2026-03-02', value: '0' },
      ],
    });
    expect(set.series).toEqual([
      {
        metric: 'distance',
        unit: 'km',
        timeZone: 'Europe/London',
        days: [
          { date: '2026-03-01', value: 3.21 },
          { date: '2026-03-02', value: 0 },
        ],
        source: {
          provider: 'fitbit',
          requests: ['/1/user/-/activities/distance/date/2026-03-01/2026-03-02.json'],
        },
      },
    ]);
  });

  it('the tracker-only active minutes are their catalog metric', () => {
    const set = read('/activities/tracker/minutesFairlyActive/date/2026-03-01/2026-03-01.json', {
      'activities-tracker-minutesFairlyActive': [{ dateTime: '2026-03-01', value: '12' }],
    });
    expect(only(set, 'minutes_fairly_active').days).toEqual([{ date: '2026-03-01', value: 12 }]);
  });

  it('intraday on the spring-forward day: each local minute its instant and offset (no 01:xx in London)', () => {
    const set = read('/activities/heart/date/2026-03-29/1d/1min.json', {
      'activities-heart': [{ dateTime: '2026-03-29', value: {} }],
      'activities-heart-intraday': {
        dataset: [
          { time: '00:59:00', value: 60 },
          { time: '02:00:00', value: 61 },
          { time: 'bad', value: 1 },
        ],
        datasetType: 'minute',
      },
    });
    expect(only(set, 'heart_rate_intraday').points).toEqual([
      { at: '2026-03-29T00:59:00.000Z', date: '2026-03-29', time: '00:59:00', offsetMinutes: 0, value: 60 },
      { at: '2026-03-29T01:00:00.000Z', date: '2026-03-29', time: '02:00:00', offsetMinutes: 60, value: 61 },
    ]);
  });

  it('a body series: "0" (no weighing that day) is no value', () => {
    const set = read('/body/weight/date/2026-03-01/2026-03-02.json', {
      'body-weight': [
        { dateTime: '2026-03-01', value: '0' },
        { dateTime: '2026-03-02', value: '71.3' },
      ],
    });
    expect(only(set, 'weight').days).toEqual([
      { date: '2026-03-01', value: null },
      { date: '2026-03-02', value: 71.3 },
    ]);
  });

  it('the weight log: weight, BMI and fat at each weighing, with its log id', () => {
    const set = read(
      '/body/log/weight/date/2026-03-01/2026-03-01.json',
      {
        weight: [{ date: '2026-03-01', time: '07:38:14', weight: 71.3, bmi: 24.1, logId: 9, source: 'Aria' }],
      },
      'America/New_York',
    );
    expect(set.series.map((s) => s.metric)).toEqual(['weight', 'bmi', 'body_fat']);
    expect(only(set, 'weight').points).toEqual([
      {
        at: '2026-03-01T12:38:14.000Z',
        date: '2026-03-01',
        time: '07:38:14',
        offsetMinutes: -300,
        value: 71.3,
        detail: { logId: 9, source: 'Aria' },
      },
    ]);
    expect(only(set, 'body_fat').points).toEqual([]);
  });

  it("sleep: one point per sleep at its start, dated by the provider's date of sleep, stages apart", () => {
    const set = read('/sleep/date/2026-03-02/2026-03-02.json', {
      sleep: [
        {
          logId: 5,
          dateOfSleep: '2026-03-02',
          startTime: '2026-03-01T23:10:00.000',
          endTime: '2026-03-02T06:40:00.000',
          minutesAsleep: 410,
          isMainSleep: true,
          levels: {
            summary: { deep: { minutes: 80 }, light: { minutes: 200 }, rem: { minutes: 90 } },
            data: [
              { dateTime: '2026-03-01T23:10:00.000', level: 'light', seconds: 1800 },
              { dateTime: '2026-03-01T23:40:00.000', level: 'deep', seconds: 2400 },
              { dateTime: 'not a time', level: 'rem' }, // malformed: left out
            ],
          },
        },
      ],
    });
    const base = {
      at: '2026-03-01T23:10:00.000Z',
      date: '2026-03-02',
      time: '23:10:00',
      offsetMinutes: 0,
    };
    const times = {
      logId: 5,
      isMainSleep: true,
      startTime: '2026-03-01T23:10:00.000',
      endTime: '2026-03-02T06:40:00.000',
    };
    expect(only(set, 'sleep_duration').points).toEqual([{ ...base, value: 410, detail: times }]);
    expect(only(set, 'sleep_stages').points).toEqual([
      {
        ...base,
        value: null,
        detail: {
          ...times,
          deep: 80,
          light: 200,
          rem: 90,
          wake: null,
          intervals: [
            { dateTime: '2026-03-01T23:10:00.000', level: 'light', seconds: 1800 },
            { dateTime: '2026-03-01T23:40:00.000', level: 'deep', seconds: 2400 },
          ],
        },
      },
    ]);
  });

  it('SpO2: a range is a bare list of the days that have one; the average is the value', () => {
    const range = read('/spo2/date/2026-03-01/2026-03-02.json', [
      { dateTime: '2026-03-02', value: { avg: 96, min: 94, max: 99 } },
    ]);
    expect(only(range, 'spo2').days).toEqual([
      { date: '2026-03-02', value: 96, detail: { min: 94, max: 99 } },
    ]);
    expect(only(read('/spo2/date/2026-03-01/2026-03-01.json', []), 'spo2').days).toEqual([]);
  });

  it('the cardio score: a range is its middle, the text kept; a number is itself', () => {
    const set = read('/cardioscore/date/2026-03-01/2026-03-02.json', {
      cardioScore: [
        { dateTime: '2026-03-01', value: { vo2Max: '44-48' } },
        { dateTime: '2026-03-02', value: { vo2Max: '47' } },
      ],
    });
    expect(only(set, 'cardio_score').days).toEqual([
      { date: '2026-03-01', value: 46, text: '44-48' },
      { date: '2026-03-02', value: 47, text: '47' },
    ]);
  });

  it('log lists answer records, not series', () => {
    const path = '/activities/list.json?afterDate=2026-03-01&sort=asc&limit=10&offset=0';
    expect(read(path, { activities: [{ logId: 1 }], pagination: {} })).toEqual({
      series: [],
      records: [{ logId: 1 }],
    });
  });

  it('HRV intraday: each night across the fall-back change, the repeated hour as its two occurrences, detail kept', () => {
    const m = (minute: string, rmssd: number) => ({
      minute,
      value: { rmssd, coverage: 0.9, hf: 100.5, lf: 300.25 },
    });
    const set = read('/hrv/date/2026-10-25/2026-10-26/all.json', {
      hrv: [
        {
          minutes: [
            m('2026-10-24T23:55:00.000', 30),
            m('2026-10-25T01:55:00.000', 31),
            m('2026-10-25T01:00:00.000', 32),
          ],
          dateTime: '2026-10-25',
        },
        {
          minutes: [m('2026-10-26T02:00:00.000', 33), m('2026-10-26T02:00:00.000', Number.NaN)],
          dateTime: '2026-10-26',
        },
      ],
    });
    const s = only(set, 'hrv_intraday');
    expect(s.unit).toBe('ms');
    expect(s.points!.map((p) => [p.date, p.time, p.at, p.offsetMinutes, p.value])).toEqual([
      ['2026-10-24', '23:55:00', '2026-10-24T22:55:00.000Z', 60, 30],
      // 01:55 summer time, then 01:00 again in winter time (London goes back at 02:00 BST).
      ['2026-10-25', '01:55:00', '2026-10-25T00:55:00.000Z', 60, 31],
      ['2026-10-25', '01:00:00', '2026-10-25T01:00:00.000Z', 0, 32],
      ['2026-10-26', '02:00:00', '2026-10-26T02:00:00.000Z', 0, 33],
    ]);
    expect(s.points![0]!.detail).toEqual({ coverage: 0.9, hf: 100.5, lf: 300.25 });
  });
});
