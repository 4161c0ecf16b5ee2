import { describe, expect, it } from 'vitest';
import { formatInstant, localDaysToUnix, localTimesToUnix, localToUnix } from './local-time';

describe('local wall-clock times to instants', () => {
  it('uses the zone offset of that date (winter and summer in New York)', () => {
    expect(localToUnix('2026-01-15', '08:00:00', 'America/New_York')).toBe(Date.UTC(2026, 0, 15, 13) / 1000);
    expect(localToUnix('2026-07-15', '08:00:00', 'America/New_York')).toBe(Date.UTC(2026, 6, 15, 12) / 1000);
  });

  it('handles the spring-forward day: 23 hours, 03:00 EDT right after 01:59:59 EST', () => {
    const [mid, end] = localDaysToUnix(['2026-03-08', '2026-03-09'], 'America/New_York');
    expect(end! - mid!).toBe(23 * 3600);
    const ts = localTimesToUnix('2026-03-08', ['01:59:59', '03:00:00'], 'America/New_York');
    expect(ts[1]! - ts[0]!).toBe(1);
    expect(formatInstant(ts[1]!, 'America/New_York', 'time')).toContain('03:00:00');
  });

  it('converts a whole day of seconds with one offset when the offset does not change', () => {
    const times = Array.from({ length: 86_400 }, (_, i) => {
      const h = String(Math.floor(i / 3600)).padStart(2, '0');
      const m = String(Math.floor((i % 3600) / 60)).padStart(2, '0');
      const s = String(i % 60).padStart(2, '0');
      return `${h}:${m}:${s}`;
    });
    const ts = localTimesToUnix('2026-05-02', times, 'Asia/Kolkata');
    expect(ts[0]).toBe(Date.UTC(2026, 4, 1, 18, 30) / 1000);
    expect(ts[86_399]! - ts[0]!).toBe(86_399);
  });

  it('draws a day whose midnight DST skips on that day (Santiago goes from 00:00 to 01:00)', () => {
    const [ts] = localDaysToUnix(['2026-09-06'], 'America/Santiago');
    expect(ts).toBe(Date.UTC(2026, 8, 6, 4) / 1000);
    expect(formatInstant(ts!, 'America/Santiago', 'days')).toBe('2026-09-06');
  });

  it('puts a time of the repeated hour at its first occurrence, as the server stores it', () => {
    expect(localToUnix('2026-10-25', '02:30:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 25, 0, 30) / 1000);
    expect(localToUnix('2026-11-01', '01:30:00', 'America/New_York')).toBe(
      Date.UTC(2026, 10, 1, 5, 30) / 1000,
    );
  });

  it('shows dates as the participant’s local dates', () => {
    const ts = localToUnix('2026-11-02', '00:00:00', 'Pacific/Auckland');
    expect(formatInstant(ts, 'Pacific/Auckland', 'days')).toBe('2026-11-02');
    expect(formatInstant(ts, 'UTC', 'days')).toBe('2026-11-01');
  });
});
