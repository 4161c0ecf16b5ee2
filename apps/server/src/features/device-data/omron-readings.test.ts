import { describe, expect, it } from 'vitest';
import { selectReadings } from './omron-readings.js';
import { everyListEmpty } from './service.js';

const reading = (id: number, dateTime: string, dateTimeLocal: string) => ({
  id,
  dateTime,
  dateTimeLocal,
  dateTimeUtcOffset: '-08:00',
});

describe('Omron readings by local date', () => {
  // 23:30 local on Feb 28 is Mar 1 in UTC: not on or after the local date Mar 1.
  const readings = [
    reading(1, '2026-03-01T07:30:00Z', '2026-02-28T23:30:00'),
    reading(2, '2026-03-01T16:00:00Z', '2026-03-01T08:00:00'),
    reading(3, '2026-03-02T16:00:00Z', '2026-03-02T08:00:00'),
    reading(2, '2026-03-01T16:00:00Z', '2026-03-01T08:00:00'), // repeated by a continuation page
  ];
  it('keeps local dates from `since`, once each, in order, limited (0 = all)', () => {
    expect(
      selectReadings(readings, { since: '2026-03-01', sortOrder: 'asc', limit: 0 }).map((r) => r.id),
    ).toEqual([2, 3]);
    expect(
      selectReadings(readings, { since: '2026-02-28', sortOrder: 'desc', limit: 2 }).map((r) => r.id),
    ).toEqual([3, 2]);
  });
});

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
