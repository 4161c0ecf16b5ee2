import { describe, expect, it } from 'vitest';
import { intradayDays } from './intraday-days.js';
import type { ReadingRow } from './repo.js';

const row = (
  at: string,
  localTime: string,
  offset: number,
  value: number | null,
  date = '2026-10-25',
): ReadingRow => ({
  participant_id: 1,
  team_id: 2,
  metric_key: 'heart_rate_intraday',
  measured_at: new Date(at),
  local_date: date,
  local_time: localTime,
  utc_offset_minutes: offset,
  value,
});
const minute = () => 60;

describe('intradayDays', () => {
  it('places each reading by its distance from the local midnight, gaps null, the offset change kept', () => {
    // London, the night clocks go back: 00:00 BST is 23:00Z the day before; 01:00 GMT is 01:00Z.
    const [day] = intradayDays(
      [
        row('2026-10-25T01:00:00Z', '01:00:00', 0, 70),
        row('2026-10-24T23:00:00Z', '00:00:00', 60, 60),
        row('2026-10-24T23:02:00Z', '00:02:00', 60, 62),
        row('2026-10-24T23:02:00Z', '00:02:00', 60, 63), // the same instant again: the last one stays
      ],
      minute,
    );
    expect(day).toMatchObject({
      local_date: '2026-10-25',
      start_at: new Date('2026-10-24T23:00:00Z'),
      step_seconds: 60,
      utc_offset_minutes: 60,
      offset_shifts: [120, 0],
      value_count: 3,
      newest_at: new Date('2026-10-25T01:00:00Z'),
      newest_offset_minutes: 0,
    });
    expect(day!.samples).toHaveLength(121);
    expect([day!.samples[0], day!.samples[1], day!.samples[2], day!.samples[120]]).toEqual([
      60,
      null,
      63,
      70,
    ]);
  });

  it('groups by participant, metric and local date', () => {
    const days = intradayDays(
      [
        row('2026-06-01T10:00:00Z', '10:00:00', 0, 1, '2026-06-01'),
        { ...row('2026-06-01T10:00:00Z', '10:00:00', 0, 2, '2026-06-01'), metric_key: 'steps_intraday' },
        row('2026-06-02T10:00:00Z', '10:00:00', 0, 3, '2026-06-02'),
      ],
      minute,
    );
    expect(days.map((d) => [d.metric_key, d.local_date, d.samples.length])).toEqual([
      ['heart_rate_intraday', '2026-06-01', 601],
      ['steps_intraday', '2026-06-01', 601],
      ['heart_rate_intraday', '2026-06-02', 601],
    ]);
  });

  it('refuses a reading off the grid or without a local time, naming it', () => {
    expect(() => intradayDays([row('2026-06-01T10:00:30Z', '10:00:30', 0, 1, '2026-06-01')], minute)).toThrow(
      'intraday heart_rate_intraday: the reading at 2026-06-01T10:00:30.000Z (participant 1, step 60 s) is off the 60-second grid of 2026-06-01',
    );
    expect(() =>
      intradayDays(
        [{ ...row('2026-06-01T10:00:00Z', '10:00:00', 0, 1, '2026-06-01'), local_time: null }],
        minute,
      ),
    ).toThrow(/has no local time or offset/);
  });
});
