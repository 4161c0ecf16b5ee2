import { describe, expect, it } from 'vitest';
import { everyListEmpty } from './service.js';

describe('"Could not find any data!"', () => {
  it('when every list of the answer is empty', () => {
    expect(everyListEmpty({ sleep: [], summary: { totalMinutesAsleep: 0 } })).toBe(true);
    expect(everyListEmpty({ weight: [] })).toBe(true);
    expect(everyListEmpty([])).toBe(true);
    expect(everyListEmpty({})).toBe(true);
    expect(everyListEmpty({ 'activities-heart': [], 'activities-heart-intraday': { dataset: [] } })).toBe(
      true,
    );
  });
  it('not when a list has entries', () => {
    expect(everyListEmpty({ 'activities-steps': [{ dateTime: '2026-03-01', value: '0' }] })).toBe(false);
    expect(everyListEmpty({ foods: [], summary: { calories: 0 }, goals: {}, x: [1] })).toBe(false);
    expect(everyListEmpty({ dateTime: '2026-03-01', value: { avg: 95 } })).toBe(false);
  });
});
