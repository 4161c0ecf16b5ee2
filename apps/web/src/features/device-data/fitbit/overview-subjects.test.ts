import { kgToLb, kmToMiles, type WindowStats } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { sevenVsSeven } from './overview-subjects';

const stats = (average: number | null): WindowStats => ({
  from: '2026-11-09',
  to: '2026-11-15',
  days: average === null ? 0 : 7,
  total: average === null ? null : average * 7,
  average,
});

describe('overview 7 vs 7 (core §9)', () => {
  it('compares the daily averages in display units, with the change and its percent', () => {
    expect(sevenVsSeven('steps', stats(6551.71), stats(5737.54))).toEqual({
      last: 6551.71,
      previous: 5737.54,
      change: 814,
      changePct: 14.2,
    });
    const w = sevenVsSeven('weight', stats(107.3), stats(106.9));
    expect(w.last).toBe(kgToLb(107.3));
    expect(w.previous).toBe(kgToLb(106.9));
    expect(w.change).toBe(Math.round((kgToLb(107.3) - kgToLb(106.9)) * 100) / 100);
    expect(sevenVsSeven('distance', stats(5.2), stats(4.5)).last).toBe(kmToMiles(5.2));
  });

  it('has no change without both windows', () => {
    expect(sevenVsSeven('restingHeartRate', stats(60), stats(null))).toEqual({
      last: 60,
      previous: null,
      change: null,
      changePct: null,
    });
  });
});
