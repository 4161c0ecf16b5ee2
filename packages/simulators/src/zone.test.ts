import { describe, expect, it } from 'vitest';
import { instantOfLocal, localDayMinutes, localIso, localTimeExists, offsetMinutesAt } from './zone.js';

describe('simulated time zones', () => {
  it('follow DST: New York on the Sunday clocks go forward (2026-03-08) and back (2026-11-01)', () => {
    const ny = 'America/New_York';
    expect(offsetMinutesAt(ny, Date.parse('2026-03-08T06:59:00Z'))).toBe(-300);
    expect(offsetMinutesAt(ny, Date.parse('2026-03-08T07:00:00Z'))).toBe(-240);
    expect(localIso(ny, Date.parse('2026-03-08T07:00:00Z'))).toBe('2026-03-08T03:00:00.000');
    expect(localDayMinutes(ny, '2026-03-08')).toBe(1380);
    expect(localDayMinutes(ny, '2026-11-01')).toBe(1500);
    expect(localDayMinutes(ny, '2026-11-02')).toBe(1440);
    expect(localTimeExists(ny, '2026-03-08T02:30')).toBe(false);
    expect(localTimeExists(ny, '2026-03-08T03:00')).toBe(true);
    // The repeated hour: its first occurrence (still EDT, -4).
    expect(new Date(instantOfLocal(ny, '2026-11-01T01:30')).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('Berlin changes on the last Sunday of March', () => {
    expect(offsetMinutesAt('Europe/Berlin', Date.parse('2026-03-29T00:59:00Z'))).toBe(60);
    expect(offsetMinutesAt('Europe/Berlin', Date.parse('2026-03-29T01:00:00Z'))).toBe(120);
    expect(new Date(instantOfLocal('Europe/Berlin', '2026-03-29T08:00')).toISOString()).toBe(
      '2026-03-29T06:00:00.000Z',
    );
  });
});
