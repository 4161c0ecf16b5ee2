import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  datesBetween,
  datesEnding,
  daysFrom,
  instantOfLocal,
  instantsOfLocalTimes,
  isKnownZone,
  localDate,
  localDayMinutes,
  localDayMs,
  localTimeExists,
  offsetMinutesAt,
  offsetMsAt,
  offsetText,
  parseOffset,
  startOfLocalDay,
  utcDate,
  wallClock,
  wallClockMs,
  wallClockParts,
} from './index.js';

const iso = (t: number) => new Date(t).toISOString();
const at = (s: string) => Date.parse(s);

/** Independent truth: Intl's own wall clock of an instant, uncached (what the package's cache must agree with). */
const oracles = new Map<string, Intl.DateTimeFormat>();
function intlWallClock(tz: string, t: number): string {
  const f =
    oracles.get(tz) ??
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  oracles.set(tz, f);
  return f.format(new Date(t)).replace(' ', 'T');
}

const ZONES = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'America/Santiago',
  'Europe/Berlin',
  'Europe/London',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Pacific/Kiritimati',
];

describe('offsets and wall clocks', () => {
  it('agree with Intl every 6 h 7 min over 2026, every 7 min across the date-line jumps, every second around each change', () => {
    const spans: Array<[number, number]> = [
      [at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z')],
      [at('2011-12-29T12:00:00Z'), at('2011-12-31T00:00:00Z')], // Apia skips 30 Dec 2011
      [at('1994-12-30T12:00:00Z'), at('1995-01-01T00:00:00Z')], // Kiritimati skips 31 Dec 1994
    ];
    const check = (tz: string, t: number) => {
      const want = intlWallClock(tz, t);
      if (wallClock(tz, t) !== want) expect(wallClock(tz, t), `${tz} ${iso(t)}`).toBe(want);
      const offset = Date.parse(`${want}Z`) - Math.floor(t / 1000) * 1000;
      if (offsetMsAt(tz, t) !== offset) expect(offsetMsAt(tz, t), `${tz} ${iso(t)}`).toBe(offset);
    };
    for (const tz of ZONES)
      spans.forEach(([from, to], i) => {
        const step = i === 0 ? 22_020_000 + 7 : 420_000 + 7;
        for (let t = from; t < to; t += step) {
          check(tz, t);
          if (offsetMsAt(tz, t) === offsetMsAt(tz, t + step)) continue;
          // A change within this step: find its second, then check every second of 3 minutes around it.
          let lo = Math.floor(t / 1000) * 1000;
          let hi = lo + Math.ceil(step / 1000) * 1000;
          while (hi - lo > 1000) {
            const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
            if (offsetMsAt(tz, mid) === offsetMsAt(tz, lo)) lo = mid;
            else hi = mid;
          }
          for (let u = hi - 90_000; u < hi + 90_000; u += 1000) check(tz, u);
        }
      });
  }, 30_000);

  it('changes exactly at the transition instant, to the second', () => {
    const ny = 'America/New_York';
    expect(offsetMinutesAt(ny, at('2026-03-08T06:59:59.999Z'))).toBe(-300);
    expect(offsetMinutesAt(ny, at('2026-03-08T07:00:00Z'))).toBe(-240);
    expect(offsetMinutesAt(ny, at('2026-11-01T05:59:59Z'))).toBe(-240);
    expect(offsetMinutesAt(ny, at('2026-11-01T06:00:00Z'))).toBe(-300);
    // Lord Howe moves by 30 minutes; Chatham sits at +12:45/+13:45; Kolkata +5:30 and Kathmandu +5:45 never move.
    expect(offsetMinutesAt('Australia/Lord_Howe', at('2026-01-15T00:00Z'))).toBe(660);
    expect(offsetMinutesAt('Australia/Lord_Howe', at('2026-07-15T00:00Z'))).toBe(630);
    expect(offsetMinutesAt('Pacific/Chatham', at('2026-01-15T00:00Z'))).toBe(825);
    expect(offsetMinutesAt('Pacific/Chatham', at('2026-07-15T00:00Z'))).toBe(765);
    expect(offsetMinutesAt('Asia/Kolkata', at('2026-07-15T00:00Z'))).toBe(330);
    expect(offsetMinutesAt('Asia/Kathmandu', at('2026-07-15T00:00Z'))).toBe(345);
    expect(offsetMinutesAt('UTC', at('2026-07-15T00:00Z'))).toBe(0);
    expect(offsetMinutesAt('Pacific/Apia', at('2011-12-30T09:59:59Z'))).toBe(-600);
    expect(offsetMinutesAt('Pacific/Apia', at('2011-12-30T10:00:00Z'))).toBe(840);
  });

  it('gives the wall clock with milliseconds, as parts and as the local date', () => {
    const t = at('2026-05-01T18:29:59.250Z');
    expect(wallClockMs('Asia/Kolkata', t)).toBe('2026-05-01T23:59:59.250');
    expect(wallClock('Asia/Kolkata', new Date(t))).toBe('2026-05-01T23:59:59');
    expect(wallClockParts('Asia/Kolkata', t)).toEqual({
      year: 2026,
      month: 5,
      day: 1,
      hour: 23,
      minute: 59,
      second: 59,
      millisecond: 250,
    });
    expect(localDate('Asia/Kolkata', t + 750)).toBe('2026-05-02');
    // Either side of the date line at one instant: Kiritimati is a day ahead of Pago Pago.
    expect(localDate('Pacific/Kiritimati', at('2026-01-01T10:00Z'))).toBe('2026-01-02');
    expect(localDate('Pacific/Pago_Pago', at('2026-01-01T10:00Z'))).toBe('2025-12-31');
    expect(localDate('UTC', at('2026-01-01T10:00Z'))).toBe('2026-01-01');
  });

  it('knows which zones exist, and refuses the rest as Intl does', () => {
    expect(isKnownZone('Europe/Berlin')).toBe(true);
    expect(isKnownZone('Mars/Olympus_Mons')).toBe(false);
    expect(() => wallClock('Mars/Olympus_Mons', 0)).toThrow(RangeError);
    expect(() => localDate('UTC', Number.NaN)).toThrow(RangeError);
  });
});

describe('instants of local times', () => {
  it('reads an ordinary time with that day’s offset', () => {
    expect(iso(instantOfLocal('America/New_York', '2026-01-15T08:00'))).toBe('2026-01-15T13:00:00.000Z');
    expect(iso(instantOfLocal('America/New_York', '2026-07-15T08:00:00'))).toBe('2026-07-15T12:00:00.000Z');
    expect(iso(instantOfLocal('Asia/Kolkata', '2026-05-02T00:00'))).toBe('2026-05-01T18:30:00.000Z');
    expect(iso(instantOfLocal('UTC', '2026-05-02T00:00:07.500'))).toBe('2026-05-02T00:00:07.000Z');
  });

  it('spring forward (gap): a skipped time is read with the offset after the change', () => {
    expect(iso(instantOfLocal('America/New_York', '2026-03-08T02:30'))).toBe('2026-03-08T06:30:00.000Z');
    expect(wallClock('America/New_York', instantOfLocal('America/New_York', '2026-03-08T02:30'))).toBe(
      '2026-03-08T01:30:00',
    );
    expect(iso(instantOfLocal('Europe/Berlin', '2026-03-29T02:30'))).toBe('2026-03-29T00:30:00.000Z');
    // Lord Howe skips only 02:00–02:30.
    expect(iso(instantOfLocal('Australia/Lord_Howe', '2026-10-04T02:15'))).toBe('2026-10-03T15:15:00.000Z');
    expect(localTimeExists('Australia/Lord_Howe', '2026-10-04T02:15')).toBe(false);
    expect(localTimeExists('Australia/Lord_Howe', '2026-10-04T02:30')).toBe(true);
    expect(localTimeExists('America/New_York', '2026-03-08T02:30')).toBe(false);
    expect(localTimeExists('America/New_York', '2026-03-08T03:00')).toBe(true);
    // The times either side of the gap are one second apart.
    const [a, b] = instantsOfLocalTimes('America/New_York', '2026-03-08', ['01:59:59', '03:00:00']);
    expect(b! - a!).toBe(1000);
    // Apia skipped 30 December 2011 altogether (from UTC−10 to UTC+14).
    expect(localTimeExists('Pacific/Apia', '2011-12-30T12:00')).toBe(false);
    expect(iso(instantOfLocal('Pacific/Apia', '2011-12-31T12:00'))).toBe('2011-12-30T22:00:00.000Z');
  });

  it('fall back (fold): a repeated time is its first occurrence', () => {
    expect(iso(instantOfLocal('America/New_York', '2026-11-01T01:30'))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(instantOfLocal('Europe/Berlin', '2026-10-25T02:30'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(instantOfLocal('Australia/Lord_Howe', '2026-04-05T01:45'))).toBe('2026-04-04T14:45:00.000Z');
    expect(iso(instantOfLocal('Australia/Sydney', '2026-04-05T02:30'))).toBe('2026-04-04T15:30:00.000Z');
    expect(localTimeExists('America/New_York', '2026-11-01T01:30')).toBe(true);
  });

  it('every minute of the days around each change maps back to the first instant showing it', () => {
    const wrong: string[] = [];
    for (const tz of [
      'America/New_York',
      'Europe/Berlin',
      'Australia/Lord_Howe',
      'America/Santiago',
      'Pacific/Apia',
    ]) {
      const from = tz === 'Pacific/Apia' ? at('2011-12-01T00:00Z') : at('2026-01-01T00:00Z');
      for (let h = from; h < from + 366 * 86_400_000; h += 21_600_000) {
        if (offsetMsAt(tz, h) === offsetMsAt(tz, h + 21_600_000)) continue;
        const firstSeen = new Map<string, number>();
        for (let t = h - 86_400_000; t < h + 108_000_000; t += 60_000) {
          const local = wallClock(tz, t).slice(0, 16);
          if (!firstSeen.has(local)) firstSeen.set(local, t);
        }
        for (const [local, t] of firstSeen) {
          // The first and last minutes of the window may have been seen before / after it.
          if (t - h > -43_200_000 && t - h < 64_800_000 && instantOfLocal(tz, local) !== t)
            wrong.push(`${tz} ${local}: ${iso(instantOfLocal(tz, local))}, not ${iso(t)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 30_000);

  it('converts a day of times in bulk exactly as one by one', () => {
    const times = Array.from({ length: 1440 }, (_, m) => {
      const h = String(Math.floor(m / 60)).padStart(2, '0');
      return `${h}:${String(m % 60).padStart(2, '0')}:30`;
    });
    for (const [tz, date] of [
      ['Asia/Kolkata', '2026-05-02'],
      ['America/New_York', '2026-03-08'],
      ['America/New_York', '2026-11-01'],
      ['Australia/Lord_Howe', '2026-10-04'],
      ['America/Santiago', '2026-09-06'],
    ] as const) {
      expect(instantsOfLocalTimes(tz, date, times)).toEqual(
        times.map((t) => instantOfLocal(tz, `${date}T${t}`)),
      );
    }
    expect(instantsOfLocalTimes('Asia/Kolkata', '2026-05-02', ['00:00:00', '23:59:59'])).toEqual([
      at('2026-05-01T18:30:00Z'),
      at('2026-05-02T18:29:59Z'),
    ]);
  });
});

describe('local days', () => {
  it('start at local midnight, or at the change when DST skips midnight', () => {
    expect(iso(startOfLocalDay('America/New_York', '2026-03-08'))).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(startOfLocalDay('Asia/Kolkata', '2026-03-29'))).toBe('2026-03-28T18:30:00.000Z');
    expect(iso(startOfLocalDay('UTC', '2026-03-29'))).toBe('2026-03-29T00:00:00.000Z');
    // Santiago and Havana go from 00:00 to 01:00.
    expect(iso(startOfLocalDay('America/Santiago', '2026-09-06'))).toBe('2026-09-06T04:00:00.000Z');
    expect(wallClock('America/Santiago', startOfLocalDay('America/Santiago', '2026-09-06'))).toBe(
      '2026-09-06T01:00:00',
    );
    expect(iso(startOfLocalDay('America/Havana', '2026-03-08'))).toBe('2026-03-08T05:00:00.000Z');
    // Apia's skipped day has no instant: it "starts" where 31 December does.
    expect(startOfLocalDay('Pacific/Apia', '2011-12-30')).toBe(startOfLocalDay('Pacific/Apia', '2011-12-31'));
  });

  it('last 24 h, 23 or 25 h on DST days, ±30 min at Lord Howe, 0 on a skipped day', () => {
    expect(localDayMinutes('America/New_York', '2026-03-08')).toBe(1380);
    expect(localDayMinutes('America/New_York', '2026-11-01')).toBe(1500);
    expect(localDayMinutes('America/New_York', '2026-11-02')).toBe(1440);
    expect(localDayMinutes('Europe/Berlin', '2026-03-29')).toBe(1380);
    expect(localDayMinutes('Australia/Sydney', '2026-04-05')).toBe(1500);
    expect(localDayMinutes('Australia/Lord_Howe', '2026-10-04')).toBe(1410);
    expect(localDayMinutes('Australia/Lord_Howe', '2026-04-05')).toBe(1470);
    expect(localDayMinutes('Asia/Kolkata', '2026-03-29')).toBe(1440);
    expect(localDayMinutes('UTC', '2026-03-29')).toBe(1440);
    expect(localDayMinutes('America/Santiago', '2026-09-06')).toBe(1380);
    expect(localDayMinutes('America/Santiago', '2026-09-05')).toBe(1440);
    expect(localDayMinutes('Pacific/Apia', '2011-12-29')).toBe(1440);
    expect(localDayMinutes('Pacific/Apia', '2011-12-30')).toBe(0);
    expect(localDayMinutes('Pacific/Kiritimati', '1994-12-31')).toBe(0);
    expect(localDayMs('America/New_York', '2026-03-08')).toBe(23 * 3_600_000);
  });
});

describe('calendar dates', () => {
  it('add days and months across month, year and leap-day ends', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-03-08', 0)).toBe('2026-03-08');
    expect(daysFrom('2026-02-28', '2026-03-01')).toBe(1);
    expect(daysFrom('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysFrom('2026-12-31', '2026-01-01')).toBe(-364);
    expect(daysFrom('2026-03-08', '2026-03-08')).toBe(0);
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2028-03-31', -1)).toBe('2028-02-29');
    expect(addMonths('2026-01-15', -12)).toBe('2025-01-15');
  });

  it('list ranges of dates', () => {
    expect(datesBetween('2026-12-30', '2027-01-02')).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ]);
    expect(datesBetween('2026-01-02', '2026-01-01')).toEqual([]);
    expect(datesBetween('2026-01-01', '2026-12-31', 3)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(datesEnding('2026-03-01', 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(utcDate(at('2026-03-01T23:59:59Z'))).toBe('2026-03-01');
  });

  it('write and read offsets as text', () => {
    expect(offsetText(-420)).toBe('-07:00');
    expect(offsetText(345)).toBe('+05:45');
    expect(offsetText(0)).toBe('+00:00');
    expect(parseOffset('+05:30')).toBe(330);
    expect(parseOffset('-0930')).toBe(-570);
    expect(parseOffset('Z')).toBeNull();
  });
});
