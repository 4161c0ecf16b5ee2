import { SUMMARY_SUBJECTS } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { FITBIT_SUBJECTS } from './fitbit-subjects';
import { OVERVIEW_SUBJECT } from './overview-subjects';
import { reorderMessage, restoreOrder, shiftTile, swapTiles } from './tile-order';

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
  it("says what a drag did in the tiles' titles, never their keys", () => {
    const title = (k: keyof typeof OVERVIEW_SUBJECT) => FITBIT_SUBJECTS[OVERVIEW_SUBJECT[k]].label;
    expect(title('sleepDuration')).not.toBe('sleepDuration');
    expect(reorderMessage('swap', title('distance'), title('sleepDuration'), 3)).toBe(
      `Swapped ${title('distance')} and ${title('sleepDuration')}.`,
    );
    expect(reorderMessage('shift', title('steps'), title('floors'), 2)).toBe(
      `Moved ${title('steps')} to position 3.`,
    );
  });
});
