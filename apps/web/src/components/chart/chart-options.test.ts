import { describe, expect, it } from 'vitest';
import { buildOptions, describeSeries, formatValue, fullXRange, valueExtent } from './chart-options';
import { seriesFor } from './series-for';
import { CHART_SUBJECTS } from './subjects';

describe('chart options', () => {
  it('draws each subject with its colour and kind from the one table', () => {
    const steps = seriesFor('steps', [1, 2]);
    expect(steps).toMatchObject({ colour: CHART_SUBJECTS.steps.colour, kind: 'bars', label: 'Steps' });
    expect(seriesFor('glucose', []).kind).toBe('step');
    expect(seriesFor('weight', []).kind).toBe('line');
    const opts = buildOptions({
      width: 400,
      height: 200,
      series: [steps],
      y: { unit: 'steps' },
      timeZone: 'Europe/Berlin',
      xGranularity: 'days',
      xRange: fullXRange([0, 86_400], [steps]),
    });
    expect(opts.series[1]).toMatchObject({ stroke: CHART_SUBJECTS.steps.colour, label: 'Steps' });
    expect(opts.axes?.[1]?.label).toBe('steps');
    expect(typeof opts.tzDate).toBe('function');
  });

  it('summarises for screen readers, gaps left out', () => {
    const text = describeSeries(
      [0, 86_400, 172_800],
      [seriesFor('steps', [1200, null, 800])],
      'steps',
      (ts) => String(ts),
    );
    expect(text).toBe('From 0 to 172800. Steps: 2 values, lowest 800 steps, highest 1,200 steps.');
    expect(formatValue(null, 'bpm')).toBe('—');
    expect(formatValue(61.456, 'bpm')).toBe('61.46 bpm');
    expect(formatValue(236.6, 'Lbs')).toBe('236.6 Lbs');
    expect(formatValue(6551.7, 'steps')).toBe('6,552 steps');
  });

  it('keeps the first and last bar whole: half a step of room on each side', () => {
    expect(fullXRange([0, 86_400, 172_800], [seriesFor('steps', [1, 2, 3])])).toEqual({
      min: -43_200,
      max: 216_000,
    });
    expect(fullXRange([0, 60], [seriesFor('heartRateIntraday', [1, 2])])).toEqual({ min: 0, max: 60 });
  });

  it('the y axis holds every plotted value, the highest at the last point too (whatever uPlot found)', () => {
    const systolic = seriesFor('systolic', [128, 131, 125, 168]);
    const diastolic = seriesFor('diastolic', [82, 84, 79, 102]);
    expect(valueExtent([systolic, diastolic])).toEqual({ min: 79, max: 168 });
    const opts = buildOptions({
      width: 400,
      height: 200,
      series: [systolic, diastolic],
      y: { unit: 'mmHg' },
      timeZone: 'UTC',
      xGranularity: 'time',
      xRange: fullXRange([0, 60, 120, 180], [systolic, diastolic]),
    });
    const range = opts.scales!.y!.range as (u: unknown, min: number, max: number) => [number, number];
    // uPlot's own min and max of the points it counted, without the last one: the axis still reaches 168.
    const [lo, hi] = range(null, 79, 131);
    expect(hi).toBeGreaterThan(168);
    expect(lo).toBeLessThan(79);
    // Zoomed into the first two points: the axis fits what is in view.
    const [, zoomedHi] = range({ scales: { x: { min: 0, max: 60 } } }, 79, 131);
    expect(zoomedHi).toBeLessThan(168);
    expect(valueExtent([seriesFor('steps', [null, null])])).toBeNull();
  });
});
