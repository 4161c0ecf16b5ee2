import { SUMMARY_SUBJECTS } from '@trialwear/contract';
import { localDate } from '@trialwear/zone';
import { describe, expect, it } from 'vitest';
import { localSummary } from './local-summary.js';

const dates = (last: string) =>
  Array.from({ length: 14 }, (_, i) =>
    new Date(Date.parse(`${last}T00:00:00Z`) - (13 - i) * 86_400_000).toISOString().slice(0, 10),
  );

describe('local summary (7 vs previous 7)', () => {
  it('counts only days with a value, totals them and averages to two decimals', () => {
    const d = dates('2026-03-08');
    // previous 7: 1000, –, 3000, –, –, –, 2001 → 3 days, 6001, 2000.33; last 7: nothing but 5 and 6 → 2 days.
    const steps = [1000, null, 3000, null, null, null, 2001, null, null, null, null, null, 5, 6];
    const series = Object.fromEntries(
      SUMMARY_SUBJECTS.map((s) => [s, d.map((date) => ({ date, value: null as number | null }))]),
    ) as Parameters<typeof localSummary>[3];
    series.steps = d.map((date, i) => ({ date, value: steps[i] ?? null }));
    series.distance = d.map((date, i) => ({ date, value: i >= 7 ? 0.1 : null }));
    const s = localSummary(7, 'America/New_York', '2026-03-08', series, new Date('2026-03-08T18:00:00Z'));
    expect(s.subjects.steps).toEqual({
      unit: 'steps',
      previous7: { from: '2026-02-23', to: '2026-03-01', days: 3, total: 6001, average: 2000.33 },
      last7: { from: '2026-03-02', to: '2026-03-08', days: 2, total: 11, average: 5.5 },
    });
    // 7 × 0.1 km is 0.7 km, not 0.7000000000000001.
    expect(s.subjects.distance.last7).toMatchObject({ days: 7, total: 0.7, average: 0.1 });
    expect(s.subjects.weight.last7).toMatchObject({ days: 0, total: null, average: null });
  });

  it("today is the participant's local date, not the server's", () => {
    const at = new Date('2026-03-08T03:30:00Z');
    expect(localDate('UTC', at)).toBe('2026-03-08');
    expect(localDate('America/Los_Angeles', at)).toBe('2026-03-07');
    expect(localDate('Europe/Berlin', new Date('2026-03-08T23:30:00Z'))).toBe('2026-03-09');
  });
});
