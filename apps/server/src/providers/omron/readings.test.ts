import { describe, expect, it } from 'vitest';
import { selectReadings } from './readings.js';

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
