import { SUMMARY_SUBJECTS } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { restoreOrder, shiftTile, swapTiles } from './tile-order';

describe('overview tile order', () => {
  const order = ['a', 'b', 'c', 'd'];
  it('Shift mode moves one tile, the others shift', () => {
    expect(shiftTile(order, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(shiftTile(order, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
  });
  it('Swap mode exchanges two tiles only', () => {
    expect(swapTiles(order, 0, 2)).toEqual(['c', 'b', 'a', 'd']);
  });
  it('restores a stored order, dropping unknown subjects and appending missing ones', () => {
    expect(restoreOrder(['weight', 'nonsense', 'steps', 'weight'])).toEqual([
      'weight',
      'steps',
      ...SUMMARY_SUBJECTS.filter((s) => s !== 'weight' && s !== 'steps'),
    ]);
    expect(restoreOrder('garbage')).toEqual([...SUMMARY_SUBJECTS]);
  });
});
