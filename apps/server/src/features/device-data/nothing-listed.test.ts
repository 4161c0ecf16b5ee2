import type { Series } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { nothingListed } from './service.js';

const s = (over: Partial<Series>): Series => ({
  metric: 'steps',
  unit: 'steps',
  timeZone: 'UTC',
  source: { provider: 'fitbit', requests: [] },
  ...over,
});
const point = { at: '2026-03-01T08:00:00.000Z', date: '2026-03-01', time: '08:00:00', offsetMinutes: 0 };

describe('"Could not find any data!"', () => {
  it('when no series lists a day or a point and there is no record', () => {
    expect(nothingListed({ series: [] })).toBe(true);
    expect(nothingListed({ series: [s({ days: [] }), s({ metric: 'sleep_stages', points: [] })] })).toBe(
      true,
    );
    expect(nothingListed({ series: [s({})], records: [] })).toBe(true);
  });
  it('not when a day is listed, even with 0 or without a value, nor when a point or a record is', () => {
    expect(nothingListed({ series: [s({ days: [{ date: '2026-03-01', value: 0 }] })] })).toBe(false);
    expect(nothingListed({ series: [s({ days: [{ date: '2026-03-01', value: null }] })] })).toBe(false);
    expect(nothingListed({ series: [s({ days: [] }), s({ points: [{ ...point, value: 71 }] })] })).toBe(
      false,
    );
    expect(nothingListed({ series: [], records: [{ logId: 1 }] })).toBe(false);
  });
});
