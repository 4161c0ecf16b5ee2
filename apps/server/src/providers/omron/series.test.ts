import { describe, expect, it } from 'vitest';
import type { ProviderAnswer } from '../types.js';
import { measurementsOf, selectReadings, toBloodPressure, toWeight } from './readings.js';
import { omronSeries } from './series.js';

const answer = (body: unknown): ProviderAnswer => ({
  request: 'POST /api/measurement since=2026-03-28&type=bloodpressure&sortOrder=asc',
  status: 200,
  headers: {},
  body,
});
const bp = {
  resource: 'measurement',
  params: { since: '2026-03-28', type: 'bloodpressure', sortOrder: 'asc' },
};
const wt = { resource: 'measurement', params: { since: '2026-03-28', type: 'weight', sortOrder: 'asc' } };

// Berlin on the night the clocks go forward (+01:00 → +02:00 at 01:00Z on 2026-03-29), a reading still
// at +01:00; and one at -05:00 late in the evening, already the next day in UTC.
const readings = [
  {
    id: 11,
    dateTime: '2026-03-29T00:30:00Z',
    dateTimeLocal: '2026-03-29T01:30:00',
    dateTimeUtcOffset: '+01:00',
    systolic: 121,
    diastolic: 79,
    pulse: 64,
  },
  {
    id: 12,
    dateTime: '2026-03-29T03:45:00Z',
    dateTimeLocal: '2026-03-28T22:45:00',
    dateTimeUtcOffset: '-05:00',
    systolic: 140,
    diastolic: 90,
    pulse: null,
  },
];

describe('Omron answer → series', () => {
  it("blood pressure: systolic, diastolic and pulse at the reading's instant, local date, time and offset", () => {
    const { series } = omronSeries(bp, answer({ status: 0, result: { bloodPressure: readings } }), null);
    expect(series.map((s) => [s.metric, s.unit, s.timeZone])).toEqual([
      ['systolic', 'mmHg', null],
      ['diastolic', 'mmHg', null],
      ['pulse', 'bpm', null],
    ]);
    const [sys, , pulse] = series;
    // Oldest first: the -05:00 reading is later as an instant though earlier on its local calendar.
    expect(sys!.points!.map((p) => [p.at, p.date, p.time, p.offsetMinutes, p.value])).toEqual([
      ['2026-03-29T00:30:00.000Z', '2026-03-29', '01:30:00', 60, 121],
      ['2026-03-29T03:45:00.000Z', '2026-03-28', '22:45:00', -300, 140],
    ]);
    expect(pulse!.points!.map((p) => p.value)).toEqual([64, null]);
    expect(sys!.points![1]!.detail).toEqual({
      id: 12,
      dateTime: '2026-03-29T03:45:00Z',
      dateTimeLocal: '2026-03-28T22:45:00',
      dateTimeUtcOffset: '-05:00',
    });
    expect(sys!.source).toEqual({ provider: 'omron', requests: [answer(null).request] });
  });

  it('weight: weight, bmi and body_fat; a missing value is null; unreadable times are left out', () => {
    const body = {
      status: 0,
      result: {
        weight: [
          {
            dateTime: '2026-03-29T05:45:00Z',
            dateTimeLocal: '2026-03-29T07:45:00',
            dateTimeUtcOffset: '+0200',
            weight: 71.3,
            bmi: 24.1,
          },
          {
            id: 3,
            dateTime: 'soon',
            dateTimeLocal: '2026-03-29T08:00:00',
            dateTimeUtcOffset: '+02:00',
            weight: 70,
          },
          {
            id: 4,
            dateTime: '2026-03-29T06:00:00Z',
            dateTimeLocal: '2026-03-29T08:00:00',
            dateTimeUtcOffset: 'CET',
            weight: 70,
          },
        ],
      },
    };
    const { series } = omronSeries(wt, answer(body), null);
    expect(series.map((s) => [s.metric, s.unit, s.points!.map((p) => p.value)])).toEqual([
      ['weight', 'kg', [71.3]],
      ['bmi', 'kg/m²', [24.1]],
      ['body_fat', '%', [null]],
    ]);
    expect(series[0]!.points![0]).toMatchObject({
      offsetMinutes: 120,
      detail: { dateTimeUtcOffset: '+0200' },
    });
    expect(series[0]!.points![0]!.detail).not.toHaveProperty('id');
  });

  it('another resource, an unknown type or an answer without the category: no series', () => {
    expect(omronSeries({ resource: 'x', params: bp.params }, answer({}), null).series).toEqual([]);
    expect(
      omronSeries({ resource: 'measurement', params: { type: 'steps' } }, answer({}), null).series,
    ).toEqual([]);
    expect(omronSeries(bp, answer({ status: 0, result: {} }), null).series.map((s) => s.points)).toEqual([
      [],
      [],
      [],
    ]);
  });

  it("the data page's readings from the series are Omron's, exactly", () => {
    const page = omronSeries(bp, answer({ status: 0, result: { bloodPressure: readings } }), null).series;
    const again = selectReadings(measurementsOf([page, page], 'bloodPressure'), {
      since: '2026-03-28',
      sortOrder: 'asc',
      limit: 0,
    });
    expect(again.map(toBloodPressure)).toEqual(readings.map(toBloodPressure));
    const w = {
      dateTime: '2026-03-29T05:45:00Z',
      dateTimeLocal: '2026-03-29T07:45:00',
      dateTimeUtcOffset: '+02:00',
      weight: 71.3,
    };
    const ws = omronSeries(wt, answer({ status: 0, result: { weight: [w] } }), null).series;
    expect(measurementsOf([ws], 'weight').map(toWeight)).toEqual([toWeight(w)]);
  });
});
