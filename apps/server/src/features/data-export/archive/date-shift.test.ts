import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SHIFT_DAYS, shiftDatesInText, shiftDaysOf } from './date-shift.js';

describe('date shifts of de-identified exports', () => {
  it('a participant’s shift: 0–364 days, the same under the same secret, spread across participants', () => {
    const key = randomBytes(32);
    const shifts = Array.from({ length: 2000 }, (_, i) => shiftDaysOf(key, i + 1));
    expect(shifts.every((s) => Number.isInteger(s) && s >= 0 && s < SHIFT_DAYS)).toBe(true);
    expect(shiftDaysOf(key, 17)).toBe(shifts[16]);
    expect(new Set(shifts).size).toBeGreaterThan(300);
    // Another trial's secret: other shifts.
    const other = randomBytes(32);
    expect(Array.from({ length: 50 }, (_, i) => shiftDaysOf(other, i + 1))).not.toEqual(shifts.slice(0, 50));
  });

  it('every date in a JSON text moves, times, numbers and impossible dates do not', () => {
    const json =
      '{"endTime": "2026-11-01T06:40:00.000", "logId": 20261101123, "startTime": "2026-10-31T23:10:00.000", "systemTime": "2026-12-31T23:55:00Z", "note": "2026-02-30", "n": "12026-01-01"}';
    expect(shiftDatesInText(json, 3)).toBe(
      '{"endTime": "2026-11-04T06:40:00.000", "logId": 20261101123, "startTime": "2026-11-03T23:10:00.000", "systemTime": "2027-01-03T23:55:00Z", "note": "2026-02-30", "n": "12026-01-01"}',
    );
    expect(shiftDatesInText('2024-02-28', 1)).toBe('2024-02-29');
    expect(shiftDatesInText('2024-12-31', 364)).toBe('2025-12-30');
    expect(shiftDatesInText('no dates here', 9)).toBe('no dates here');
  });
});
