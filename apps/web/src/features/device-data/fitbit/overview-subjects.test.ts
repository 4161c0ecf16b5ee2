import { kgToLb, kmToMiles, type WindowStats } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { isDailyTotal, sevenVsSeven } from './overview-subjects';

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
      last: 6552,
      previous: 5738,
      change: 814,
      changePct: 14.2,
    });
    const w = sevenVsSeven('weight', stats(107.3), stats(106.9));
    expect(w.last).toBe(kgToLb(107.3));
    expect(w.previous).toBe(kgToLb(106.9));
    expect(w.change).toBe(Math.round((kgToLb(107.3) - kgToLb(106.9)) * 10) / 10);
    expect(sevenVsSeven('distance', stats(5.2), stats(4.5)).last).toBe(kmToMiles(5.2));
  });

  it('rounds each subject as its tile shows it: a small change is not "-0", never two decimals of a bpm', () => {
    // Floors: 10.8 against 11 is -0.2 (a whole-number rounding printed "-0 floors (-1.8%)").
    expect(sevenVsSeven('floors', stats(10.8), stats(11))).toEqual({
      last: 10.8,
      previous: 11,
      change: -0.2,
      changePct: -1.8,
    });
    expect(sevenVsSeven('restingHeartRate', stats(66.5), stats(67.4286))).toEqual({
      last: 66.5,
      previous: 67.4,
      change: -0.9,
      changePct: -1.4,
    });
    expect(sevenVsSeven('sleepDuration', stats(381.57), stats(425))).toMatchObject({
      last: 382,
      change: -43,
    });
    const same = sevenVsSeven('steps', stats(5000.2), stats(5000.4));
    expect(Object.is(same.change, -0)).toBe(false);
    expect(same.change).toBe(0);
  });

  it('says "a day" only of daily totals, not of levels', () => {
    expect(['steps', 'floors', 'distance', 'sleepDuration'].every((s) => isDailyTotal(s as never))).toBe(
      true,
    );
    expect(isDailyTotal('weight')).toBe(false);
    expect(isDailyTotal('restingHeartRate')).toBe(false);
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
