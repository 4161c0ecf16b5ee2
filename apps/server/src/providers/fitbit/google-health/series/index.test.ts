/*
 * googleToSeries on hand-written Google bodies (the shapes the Google Health
 * API answers, google-health-api.md §3): the series expected in full.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderAnswer } from '../../../types.js';
import type { GoogleCall } from '../google-http.js';
import { googleToSeries } from './index.js';

const answer = (calls: GoogleCall[]): ProviderAnswer => ({
  request: calls.map((c) => c.request).join(' ; '),
  status: 200,
  headers: {},
  body: { calls },
});
const tracker = (path: string) => ({ resource: 'tracker', params: { path } });
const gdate = (d: string) => ({ year: +d.slice(0, 4), month: +d.slice(5, 7), day: +d.slice(8, 10) });
const rollupDay = (d: string, next: string, payload: object) => ({
  civilStartTime: { date: gdate(d) },
  civilEndTime: { date: gdate(next) },
  ...payload,
});
const DAILY = (type: string) => `POST /v4/users/me/dataTypes/${type}/dataPoints:dailyRollUp`;
const LIST = (type: string) => `GET /v4/users/me/dataTypes/${type}/dataPoints?pageSize=1000&filter=x`;

describe('googleToSeries', () => {
  it('an activity series: every day of the range, civil dates, mm → km, 0 where Google has no value', () => {
    const a = answer([
      {
        request: DAILY('distance'),
        body: {
          rollupDataPoints: [
            rollupDay('2026-10-31', '2026-11-01', { distance: { millimetersSum: '4502123' } }),
            // No union key: no data that day (§3.5).
            rollupDay('2026-11-01', '2026-11-02', {}),
          ],
        },
      },
      {
        request: DAILY('distance'),
        body: {
          rollupDataPoints: [
            rollupDay('2026-11-02', '2026-11-03', { distance: { millimetersSum: '1000000' } }),
          ],
        },
      },
    ]);
    expect(
      googleToSeries(tracker('/activities/distance/date/2026-10-31/2026-11-03.json'), a, 'America/New_York'),
    ).toEqual({
      series: [
        {
          metric: 'distance',
          unit: 'km',
          timeZone: 'America/New_York',
          days: [
            { date: '2026-10-31', value: 4.502123 },
            { date: '2026-11-01', value: 0 },
            { date: '2026-11-02', value: 1 },
            { date: '2026-11-03', value: 0 },
          ],
          source: { provider: 'google_health', requests: [DAILY('distance'), DAILY('distance')] },
        },
      ],
    });
  });

  it('a day of windows when clocks go back: each wall-clock time once, at its first instant, both windows summed', () => {
    const window = (start: string, steps: number | null) => ({
      startTime: start,
      endTime: new Date(Date.parse(start) + 900_000).toISOString(),
      ...(steps === null ? {} : { steps: { countSum: String(steps) } }),
    });
    const a = answer([
      { request: 'GET /v4/users/me/settings', body: { timeZone: 'America/New_York', utcOffset: '-18000s' } },
      {
        request: 'POST /v4/users/me/dataTypes/steps/dataPoints:rollUp',
        sent: {
          range: { startTime: '2026-11-01T04:00:00.000Z', endTime: '2026-11-02T05:00:00.000Z' },
          windowSize: '900s',
        },
        body: {
          rollupDataPoints: [
            window('2026-11-01T05:30:00.000Z', 10), // 01:30 EDT
            window('2026-11-01T06:30:00.000Z', 5), // 01:30 EST
            window('2026-11-01T07:00:00.000Z', 7), // 02:00 EST
            window('2026-11-01T07:15:00.000Z', null),
          ],
        },
      },
    ]);
    const path = '/activities/steps/date/2026-11-01/1d/15min/time/01:00/02:15.json';
    const [s] = googleToSeries(tracker(path), a, 'America/New_York').series;
    const p = (at: string, time: string, offsetMinutes: number, value: number) => ({
      at,
      date: '2026-11-01',
      time,
      offsetMinutes,
      value,
    });
    expect(s).toMatchObject({ metric: 'steps', unit: 'steps', timeZone: 'America/New_York' });
    expect(s!.points).toEqual([
      p('2026-11-01T05:00:00.000Z', '01:00:00', -240, 0),
      p('2026-11-01T05:15:00.000Z', '01:15:00', -240, 0),
      p('2026-11-01T05:30:00.000Z', '01:30:00', -240, 15),
      p('2026-11-01T05:45:00.000Z', '01:45:00', -240, 0),
      p('2026-11-01T07:00:00.000Z', '02:00:00', -300, 7),
      p('2026-11-01T07:15:00.000Z', '02:15:00', -300, 0),
    ]);
    // Without the window: the 100 windows of the 25-hour day are 96 wall-clock times.
    const whole = googleToSeries(
      tracker('/activities/steps/date/2026-11-01/1d/15min.json'),
      a,
      'America/New_York',
    );
    expect(whole.series[0]!.points).toHaveLength(96);
  });

  it('a sleep: one point at its start, dated by the day it ended, minutes asleep; stages in detail', () => {
    const a = answer([
      {
        request: LIST('sleep'),
        body: {
          dataPoints: [
            {
              name: 'users/me/dataTypes/sleep/dataPoints/20261015067',
              dataSource: { recordingMethod: 'AUTOMATIC' },
              sleep: {
                type: 'STAGES',
                interval: {
                  startTime: '2026-10-14T21:08:00Z',
                  startUtcOffset: '3600s',
                  endTime: '2026-10-15T04:22:00Z',
                  endUtcOffset: '3600s',
                  civilStartTime: { date: gdate('2026-10-14'), time: { hours: 22, minutes: 8 } },
                  civilEndTime: { date: gdate('2026-10-15'), time: { hours: 5, minutes: 22 } },
                },
                metadata: { mainSleep: true },
                stages: [
                  {
                    startTime: '2026-10-14T21:08:00Z',
                    startUtcOffset: '3600s',
                    endTime: '2026-10-14T21:38:00Z',
                    endUtcOffset: '3600s',
                    type: 'LIGHT',
                  },
                  {
                    startTime: '2026-10-14T21:38:00Z',
                    startUtcOffset: '3600s',
                    endTime: '2026-10-14T21:40:30Z',
                    endUtcOffset: '3600s',
                    type: 'AWAKE',
                  },
                ],
                summary: {
                  minutesAsleep: '406',
                  minutesInSleepPeriod: '434',
                  stagesSummary: [
                    { type: 'DEEP', minutes: '80', count: '4' },
                    { type: 'LIGHT', minutes: '220', count: '20' },
                    { type: 'REM', minutes: '106', count: '5' },
                    { type: 'AWAKE', minutes: '28', count: '21' },
                  ],
                },
              },
            },
          ],
        },
      },
    ]);
    const { series } = googleToSeries(tracker('/sleep/date/2026-10-15/2026-10-16.json'), a, 'Europe/London');
    const at = { at: '2026-10-14T21:08:00.000Z', date: '2026-10-15', time: '22:08:00', offsetMinutes: 60 };
    const base = {
      logId: 20261015067,
      isMainSleep: true,
      startTime: '2026-10-14T22:08:00.000',
      endTime: '2026-10-15T05:22:00.000',
    };
    expect(series.map((s) => [s.metric, s.unit, s.points])).toEqual([
      ['sleep_duration', 'min', [{ ...at, value: 406, detail: base }]],
      [
        'sleep_stages',
        'min',
        [
          {
            ...at,
            value: null,
            detail: {
              ...base,
              deep: 80,
              light: 220,
              rem: 106,
              wake: 28,
              // The stages as legacy levels.data: local start, AWAKE as wake, seconds.
              intervals: [
                { dateTime: '2026-10-14T22:08:00.000', level: 'light', seconds: 1800 },
                { dateTime: '2026-10-14T22:38:00.000', level: 'wake', seconds: 150 },
              ],
            },
          },
        ],
      ],
    ]);
  });

  it('weighings: g → kg, BMI from the latest height, body fat of the same time; a day without one is null', () => {
    const sampleTime = {
      physicalTime: '2026-10-15T06:38:14Z',
      utcOffset: '3600s',
      civilTime: { date: gdate('2026-10-15'), time: { hours: 7, minutes: 38, seconds: 14 } },
    };
    const calls: GoogleCall[] = [
      {
        request: LIST('weight'),
        body: {
          dataPoints: [
            {
              name: 'users/me/dataTypes/weight/dataPoints/1792046294000',
              dataSource: { device: { displayName: 'Aria Air' } },
              weight: { sampleTime, weightGrams: 62040 },
            },
          ],
        },
      },
      { request: LIST('body-fat'), body: { dataPoints: [{ bodyFat: { sampleTime, percentage: 24.8 } }] } },
      { request: LIST('height'), body: { dataPoints: [{ height: { heightMillimeters: '1720' } }] } },
    ];
    const at = { at: '2026-10-15T06:38:14.000Z', date: '2026-10-15', time: '07:38:14', offsetMinutes: 60 };
    const detail = { logId: 1792046294000, source: 'Aria Air' };
    const log = googleToSeries(
      tracker('/body/log/weight/date/2026-10-15/2026-10-16.json'),
      answer(calls),
      'Europe/London',
    );
    expect(log.series.map((s) => [s.metric, s.unit, s.points])).toEqual([
      ['weight', 'kg', [{ ...at, value: 62.04, detail }]],
      ['bmi', 'kg/m²', [{ ...at, value: 20.97, detail }]],
      ['body_fat', '%', [{ ...at, value: 24.8, detail }]],
    ]);
    const weight = googleToSeries(
      tracker('/body/weight/date/2026-10-15/2026-10-16.json'),
      answer(calls),
      'Europe/London',
    );
    expect(weight.series[0]!.days).toEqual([
      { date: '2026-10-15', value: 62.04 },
      { date: '2026-10-16', value: null },
    ]);
  });

  it('daily health metrics: the days Google has; SpO2 without min and max, the cardio score one number', () => {
    const daily = (type: string, key: string, payloads: Array<[string, object]>): GoogleCall => ({
      request: LIST(type),
      body: { dataPoints: payloads.map(([d, p]) => ({ [key]: { date: gdate(d), ...p } })) },
    });
    const spo2 = googleToSeries(
      tracker('/spo2/date/2026-10-15/2026-10-17.json'),
      answer([
        daily('daily-oxygen-saturation', 'dailyOxygenSaturation', [
          ['2026-10-17', { averagePercentage: 96.2 }],
          ['2026-10-15', { averagePercentage: 97.6, lowerBoundPercentage: 95 }],
        ]),
      ]),
      'Europe/London',
    );
    expect(spo2.series[0]!.days).toEqual([
      { date: '2026-10-15', value: 97.6, detail: { min: null, max: null } },
      { date: '2026-10-17', value: 96.2, detail: { min: null, max: null } },
    ]);
    const cardio = googleToSeries(
      tracker('/cardioscore/date/2026-10-15/2026-10-15.json'),
      answer([daily('daily-vo2-max', 'dailyVo2Max', [['2026-10-15', { vo2Max: 46.04 }]])]),
      'Europe/London',
    );
    expect(cardio.series[0]).toMatchObject({
      metric: 'cardio_score',
      unit: 'mL/kg/min',
      days: [{ date: '2026-10-15', value: 46, text: '46' }],
    });
    const hrv = googleToSeries(
      tracker('/hrv/date/2026-10-15/2026-10-15.json'),
      answer([
        daily('daily-heart-rate-variability', 'dailyHeartRateVariability', [
          ['2026-10-15', { averageHeartRateVariabilityMilliseconds: 30.4 }],
        ]),
      ]),
      'Europe/London',
    );
    expect(hrv.series[0]!.days).toEqual([{ date: '2026-10-15', value: 30.4, detail: { deepRmssd: null } }]);
  });
});
