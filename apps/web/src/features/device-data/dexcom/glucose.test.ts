import { glucoseSummary, type Series } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import {
  egvReadings,
  glucoseBands,
  glucoseDayWindow,
  glucoseLine,
  glucoseWindow,
  readingsOfDay,
  trendText,
} from './glucose';

type Rec = { systemTime: string; displayTime: string; value: number | null; trend?: string };
/** The server's `egv` series of these records (as providers/dexcom/series.ts answers it). */
const egv = (records: Rec[]): Series[] => [
  {
    metric: 'egv',
    unit: 'mg/dL',
    timeZone: null,
    points: records.map((r) => ({
      at: new Date(r.systemTime).toISOString(),
      date: r.displayTime.slice(0, 10),
      time: r.displayTime.slice(11, 19),
      offsetMinutes: 0,
      value: r.value,
      detail: {
        recordId: null,
        trend: r.trend ?? null,
        trendRate: null,
        systemTime: r.systemTime,
        displayTime: r.displayTime,
      },
    })),
    source: { provider: 'dexcom', requests: [] },
  },
  {
    metric: 'calibrations',
    unit: 'mg/dL',
    timeZone: null,
    points: [],
    source: { provider: 'dexcom', requests: [] },
  },
];

describe('glucose page helpers', () => {
  it('asks Dexcom for the last N days in UTC without an offset, to the minute', () => {
    const now = Date.parse('2026-11-15T10:31:47.123Z');
    expect(glucoseWindow(7, now)).toEqual({
      startDate: '2026-11-08T10:31:00',
      endDate: '2026-11-15T10:31:00',
    });
    expect(glucoseWindow(90, now).startDate).toBe('2026-08-17T10:31:00');
  });

  it('asks for a whole local day of any zone (UTC−12 to +14), never past now, and keeps that day', () => {
    const later = Date.parse('2026-12-01T00:00:00Z');
    expect(glucoseDayWindow('2026-11-10', later)).toEqual({
      startDate: '2026-11-09T10:00:00',
      endDate: '2026-11-11T12:00:00',
    });
    // Yesterday's window ends now.
    expect(glucoseDayWindow('2026-11-14', Date.parse('2026-11-15T10:31:47Z')).endDate).toBe(
      '2026-11-15T10:31:00',
    );
    const readings = [
      { displayTime: '2026-11-09T23:55:00-08:00' },
      { displayTime: '2026-11-10T00:00:00-08:00' },
      { displayTime: '2026-11-10T23:55:00+14:00' },
      { displayTime: '2026-11-11T00:00:00+09:00' },
    ];
    expect(readingsOfDay(readings, '2026-11-10')).toEqual(readings.slice(1, 3));
  });

  it('keeps EGVs with a value and draws them oldest first on the displayed clock', () => {
    const records = [
      { systemTime: '2026-11-01T10:05:00Z', displayTime: '2026-11-01T02:05:00-08:00', value: 110 },
      { systemTime: '2026-11-01T10:00:00Z', displayTime: '2026-11-01T02:00:00-08:00', value: 100 },
      {
        systemTime: '2026-11-01T10:10:00Z',
        displayTime: '2026-11-01T02:10:00-08:00',
        value: null,
        trend: 'flat',
      },
    ];
    const readings = egvReadings(egv(records));
    expect(readings.map((r) => r.value)).toEqual([110, 100]);
    // The texts as Dexcom sent them (the page's CSV writes them).
    expect(readings[0]).toMatchObject({
      systemTime: '2026-11-01T10:05:00Z',
      displayTime: '2026-11-01T02:05:00-08:00',
    });
    expect(egvReadings(undefined)).toEqual([]);
    const line = glucoseLine(readings);
    expect(line.x).toEqual([
      Date.parse('2026-11-01T02:00:00Z') / 1000,
      Date.parse('2026-11-01T02:05:00Z') / 1000,
    ]);
    expect(line.series[0]!.values).toEqual([100, 110]);
  });

  it('breaks the line at a gap of more than 10 minutes (no value held across it)', () => {
    const at = (min: number, value: number) => ({
      systemTime: new Date(Date.UTC(2026, 10, 1, 10, min)).toISOString(),
      displayTime: new Date(Date.UTC(2026, 10, 1, 2, min)).toISOString().slice(0, 19),
      value,
    });
    const line = glucoseLine(egvReadings(egv([at(0, 100), at(5, 105), at(40, 140), at(45, 145)])));
    const base = Date.UTC(2026, 10, 1, 2, 0) / 1000;
    expect(line.x).toEqual([base, base + 300, base + 600, base + 2400, base + 2700]);
    expect(line.series[0]!.values).toEqual([100, 105, null, 140, 145]);
  });

  it('splits the summary into five exclusive bands that add up to 100%', () => {
    const values = [50, 60, 65, 100, 120, 150, 170, 200, 240, 300];
    const s = glucoseSummary(values, 1);
    const bands = Object.fromEntries(glucoseBands(s).map((b) => [b.key, b.percent]));
    expect(bands).toEqual({ veryLow: 10, low: 20, inRange: 40, high: 20, veryHigh: 10 });
    expect(Object.values(bands).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('names trends in words a clinician reads, with the arrow', () => {
    expect(trendText('singleUp')).toBe('↑ rising');
    expect(trendText('fortyFiveUp')).toBe('↗ rising slowly');
    expect(trendText('doubleDown')).toBe('⇊ falling quickly');
    expect(trendText('flat')).toBe('→ steady');
    expect(trendText(null)).toBe('—');
    expect(trendText('notComputable')).toBe('trend not computable');
    expect(trendText('somethingNew')).toBe('somethingNew');
  });

  it('keeps time order when the displayed clock goes back (DST end): instants shifted by the newest offset', () => {
    const line = glucoseLine(
      egvReadings(
        egv([
          { systemTime: '2026-11-01T05:55:00Z', displayTime: '2026-11-01T01:55:00-04:00', value: 100 },
          { systemTime: '2026-11-01T06:00:00Z', displayTime: '2026-11-01T01:00:00-05:00', value: 101 },
        ]),
      ),
    );
    const newest = Date.parse('2026-11-01T01:00:00Z') / 1000;
    expect(line.x).toEqual([newest - 300, newest]);
    expect(line.series[0]!.values).toEqual([100, 101]);
  });
});
