import { describe, expect, it } from 'vitest';
import { dexcomWindows, mergeRecords } from './windows.js';

describe('Dexcom windows', () => {
  it('walks a long period in consecutive windows of at most 30 days', () => {
    const w = dexcomWindows(new Date(), '2026-01-01T00:00:00', '2026-03-02T12:00:00');
    expect(w).toEqual({
      ok: true,
      windows: [
        ['2026-01-01T00:00:00', '2026-01-31T00:00:00'],
        ['2026-01-31T00:00:00', '2026-03-02T00:00:00'],
        ['2026-03-02T00:00:00', '2026-03-02T12:00:00'],
      ],
    });
  });

  it('defaults to the last 7 days; refuses reversed and over-90-day periods', () => {
    const w = dexcomWindows(new Date('2026-03-10T08:15:30.500Z'));
    expect(w).toEqual({ ok: true, windows: [['2026-03-03T08:15:30', '2026-03-10T08:15:30']] });
    expect(dexcomWindows(new Date(), '2026-03-02T00:00:00', '2026-03-01T00:00:00').ok).toBe(false);
    expect(dexcomWindows(new Date(), '2026-01-01T00:00:00', '2026-04-01T00:00:01').ok).toBe(false);
    expect(dexcomWindows(new Date(), '2026-01-01T00:00:00', '2026-04-01T00:00:00').ok).toBe(true);
  });

  it('merges windows oldest first with the shared edge once', () => {
    const r = (id: string, t: string) => ({ recordId: id, systemTime: t });
    expect(
      mergeRecords([
        [r('b', '2026-01-02T00:00:00Z'), r('a', '2026-01-01T00:00:00Z')],
        [r('b', '2026-01-02T00:00:00Z'), r('c', '2026-01-03T00:00:00Z')],
      ]),
    ).toEqual([
      r('a', '2026-01-01T00:00:00Z'),
      r('b', '2026-01-02T00:00:00Z'),
      r('c', '2026-01-03T00:00:00Z'),
    ]);
  });
});
