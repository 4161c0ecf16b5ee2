import { describe, expect, it } from 'vitest';
import { dailyMeans, participantLines } from '../lib/line-data';
import { bloodPressureLines, weightLines } from './omron-series';

const bp = (dateTime: string, dateTimeLocal: string, systolic: number, diastolic: number) => ({
  dateTime,
  dateTimeLocal,
  utcOffset: '-07:00',
  systolic,
  diastolic,
  pulse: 70,
});

describe('Omron chart series', () => {
  it('puts readings oldest first on the participant’s wall clock, whatever the table order', () => {
    const rows = [
      bp('2026-11-02T15:00:00Z', '2026-11-02T08:00:00', 130, 80),
      bp('2026-11-01T15:00:00Z', '2026-11-01T08:00:00', 120, 75),
    ];
    const lines = bloodPressureLines(rows);
    expect(lines.x).toEqual([
      Date.parse('2026-11-01T08:00:00Z') / 1000,
      Date.parse('2026-11-02T08:00:00Z') / 1000,
    ]);
    expect(lines.series).toEqual([
      { label: 'Systolic', values: [120, 130] },
      { label: 'Diastolic', values: [75, 80] },
    ]);
  });

  it('keeps x ascending when the clock changed between readings (the order uPlot needs)', () => {
    // A flight west: the later reading (by instant) shows an earlier wall-clock time.
    const lines = bloodPressureLines([
      bp('2026-11-01T16:00:00Z', '2026-11-01T18:00:00', 125, 80),
      bp('2026-11-01T22:00:00Z', '2026-11-01T14:00:00', 168, 102),
    ]);
    expect(lines.x).toEqual([...lines.x].sort((a, b) => a - b));
    expect(lines.series[0]!.values).toEqual([168, 125]);
  });

  it('shows weight in pounds to one decimal (×2.20462)', () => {
    const lines = weightLines([
      {
        dateTime: '2026-11-01T06:45:00Z',
        dateTimeLocal: '2026-11-01T06:45:00',
        utcOffset: '+00:00',
        weight: 80,
        bmi: null,
        bodyFat: null,
      },
    ]);
    expect(lines.series[0]).toEqual({ label: 'Weight', values: [176.4] });
  });

  it('aligns several participants on the union of their times, null where one has no reading', () => {
    const lines = participantLines([
      {
        label: 'A-1',
        points: [
          { x: 10, y: 1 },
          { x: 30, y: 3 },
        ],
      },
      {
        label: '#7',
        points: [
          { x: 20, y: 2 },
          { x: 30, y: 4 },
        ],
      },
    ]);
    expect(lines).toEqual({
      x: [10, 20, 30],
      series: [
        { label: 'A-1', values: [1, null, 3] },
        { label: '#7', values: [null, 2, 4] },
      ],
    });
  });

  it('averages readings per wall-clock day, one decimal, days in order', () => {
    const day = (d: number, h: number) => Date.UTC(2026, 10, d, h) / 1000;
    expect(
      dailyMeans([
        { x: day(2, 7), y: 120 },
        { x: day(1, 20), y: 131 },
        { x: day(1, 7), y: 120 },
        { x: day(2, 8), y: 125 },
        { x: day(2, 21), y: 126 },
      ]),
    ).toEqual([
      { x: day(1, 0), y: 125.5 },
      { x: day(2, 0), y: 123.7 },
    ]);
  });
});
