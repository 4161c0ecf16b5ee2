/*
 * The non-wear model (decision 032): deterministic per user and local date,
 * nights off the wrist, hours off, drawer days; the truth of wear equals the
 * minutes with a sample in the legacy 1min (and 1sec) heart datasets, over
 * the DST changes of a zone west of UTC and of one east of it; the day's
 * values follow the worn minutes.
 */
import { addDays } from '@trialwear/zone';
import { afterEach, describe, expect, it } from 'vitest';
import { fitbitDay, fitbitIntradayHeart, fitbitIntradaySteps } from './fitbit-daily.js';
import { fitbitUserId, fitbitUserTimezone } from './fitbit-data.js';
import { resetFitbitDeviceState, setFitbitWear, stopFitbitSync } from './fitbit-device-state.js';
import { fitbitIntradayDataset, fitbitLocalMinutes } from './fitbit-intraday.js';
import { fitbitWearMinutes, fitbitWornMask } from './fitbit-wear.js';

/** The first simulated user (by seed) living in a zone. */
function userIn(tz: string, skip = 0): string {
  let found = 0;
  for (let i = 0; ; i++) {
    const id = fitbitUserId(`WEAR:${i}`);
    if (fitbitUserTimezone(id).tz === tz && found++ === skip) return id;
  }
}

const days = (first: string, n: number) => Array.from({ length: n }, (_, i) => addDays(first, i));
const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The minutes with a sample in the legacy heart dataset at a detail. */
const sampledMinutes = (userId: string, date: string, detail: '1sec' | '1min') =>
  new Set(fitbitIntradayDataset(userId, date, 'heart', detail).dataset.map((e) => minuteOf(e.time)));

// US zones change on 2026-03-08 and 2026-11-01, Berlin on 2026-03-29 and 2026-10-25, Sydney
// (the other way) on 2026-04-05 and 2026-10-04: ten days around each.
const CHANGES: Array<{ tz: string; forward: string; back: string }> = [
  { tz: 'America/Los_Angeles', forward: '2026-03-08', back: '2026-11-01' },
  { tz: 'America/New_York', forward: '2026-03-08', back: '2026-11-01' },
  { tz: 'Europe/Berlin', forward: '2026-03-29', back: '2026-10-25' },
  { tz: 'Australia/Sydney', forward: '2026-10-04', back: '2026-04-05' },
];

describe('Fitbit non-wear model', { timeout: 120_000 }, () => {
  afterEach(() => resetFitbitDeviceState());

  it('is deterministic per user and local date', () => {
    const u = userIn('Europe/Berlin');
    const first = days('2026-01-01', 60).map((d) => [
      fitbitWearMinutes(u, d),
      fitbitDay(u, d).steps,
      fitbitDay(u, d).sleep?.minutesAsleep ?? null,
    ]);
    // The memos forget everything on a change of the control state: the same values are made again.
    resetFitbitDeviceState();
    const again = days('2026-01-01', 60).map((d) => [
      fitbitWearMinutes(u, d),
      fitbitDay(u, d).steps,
      fitbitDay(u, d).sleep?.minutesAsleep ?? null,
    ]);
    expect(again).toEqual(first);
    // Another user has another pattern.
    const v = userIn('Europe/Berlin', 1);
    expect(days('2026-01-01', 60).map((d) => fitbitWearMinutes(v, d))).not.toEqual(first.map((x) => x[0]));
  });

  it('has drawer days, nights off the wrist, hours off and whole days worn', () => {
    const kinds = { drawer: 0, nightOff: 0, hoursOff: 0, full: 0 };
    for (const tz of ['America/New_York', 'Asia/Tokyo', 'Europe/London']) {
      const u = userIn(tz);
      for (const date of days('2026-01-01', 365)) {
        const d = fitbitDay(u, date);
        const n = fitbitWearMinutes(u, date);
        expect(d.wornMinutes).toBe(n);
        const exist = fitbitLocalMinutes(u, date).length;
        if (n === 0) {
          kinds.drawer++;
          expect(d).toMatchObject({ worn: false, steps: 0, restingHeartRate: null, sleep: null });
          expect(d.minutesSedentary).toBe(1440);
        } else if (n === exist) kinds.full++;
        else if (!d.sleep) kinds.nightOff++;
        else kinds.hoursOff++;
      }
    }
    const total = 3 * 365;
    expect(kinds.drawer / total).toBeGreaterThan(0.06);
    expect(kinds.drawer / total).toBeLessThan(0.17);
    expect(kinds.nightOff / total).toBeGreaterThan(0.08);
    expect(kinds.hoursOff / total).toBeGreaterThan(0.15);
    expect(kinds.full / total).toBeGreaterThan(0.3);
  });

  it('a night off the wrist: no sleep log, none of the values computed from it, the minutes of the night unworn', () => {
    const u = userIn('America/New_York');
    let nights = 0;
    for (const date of days('2026-01-01', 200)) {
      const d = fitbitDay(u, date);
      if (!d.worn || d.sleep) continue;
      nights++;
      expect(d).toMatchObject({ spo2: null, hrv: null, breathingRate: null, skinTempRelative: null });
      expect(d.restingHeartRate).not.toBeNull();
      // Minutes off: no sleep minutes, the rest of the day is sedentary or active.
      expect(d.minutesSedentary + d.minutesLightlyActive + d.minutesFairlyActive + d.minutesVeryActive).toBe(
        1440,
      );
    }
    expect(nights).toBeGreaterThan(10);
  });

  it('a minute off the wrist has no heart rate and no steps; the day’s steps are the sum of its minutes', () => {
    const u = userIn('Asia/Tokyo');
    for (const date of days('2026-05-01', 90)) {
      const on = fitbitWornMask(u, date);
      const hr = fitbitIntradayHeart(u, date);
      const steps = fitbitIntradaySteps(u, date);
      const wrong = [];
      for (let m = 0; m < 1440; m++)
        if ((hr[m] !== null) !== (on[m] === 1) || (!on[m] && steps[m] !== 0)) wrong.push(m);
      expect(wrong, date).toEqual([]);
      const d = fitbitDay(u, date);
      expect(
        steps.reduce((a, b) => a + b, 0),
        date,
      ).toBe(d.steps);
      const walking = steps.filter((s) => s > 0).length;
      expect(d.floors).toBeLessThanOrEqual(walking);
    }
  });

  it('the truth equals the minutes with a sample in the 1min and 1sec heart datasets, across DST changes west and east of UTC', () => {
    for (const { tz, forward, back } of CHANGES) {
      const u = userIn(tz);
      for (const date of [...days(addDays(forward, -5), 10), ...days(addDays(back, -5), 10)]) {
        const truth = fitbitWearMinutes(u, date);
        const perMinute = sampledMinutes(u, date, '1min');
        expect(perMinute.size, `${tz} ${date}`).toBe(truth);
        expect(sampledMinutes(u, date, '1sec'), `${tz} ${date}`).toEqual(perMinute);
      }
      // A day worn throughout: 1380 minutes the day clocks go forward, 1440 the day they go back
      // (the dataset lists each wall-clock minute once, the repeated hour's first occurrence).
      setFitbitWear(u, [forward, back, addDays(back, 1)], 1440);
      expect(fitbitWearMinutes(u, forward), `${tz} forward`).toBe(1380);
      expect(sampledMinutes(u, forward, '1min').size).toBe(1380);
      expect(fitbitWearMinutes(u, back), `${tz} back`).toBe(1440);
      expect(sampledMinutes(u, back, '1min').size).toBe(1440);
      expect(fitbitWearMinutes(u, addDays(back, 1))).toBe(1440);
    }
  });

  it('wear set for coming days: that many minutes, worn from 07:00, and the nights left unworn have no sleep', () => {
    const u = userIn('Europe/Berlin');
    const from = '2026-06-10';
    setFitbitWear(u, days(from, 3), 300);
    for (const date of days(from, 3)) {
      expect(fitbitWearMinutes(u, date)).toBe(300);
      const minutes = [...sampledMinutes(u, date, '1min')].sort((a, b) => a - b);
      expect(minutes[0]).toBe(7 * 60);
      expect(minutes[minutes.length - 1]).toBe(7 * 60 + 299);
      expect(fitbitDay(u, date).sleep).toBeNull();
    }
    setFitbitWear(u, [from], 0);
    expect(fitbitDay(u, from)).toMatchObject({ worn: false, wornMinutes: 0, steps: 0 });
  });

  it('a sync stop: nothing recorded from that instant on, in the user’s local minutes', () => {
    const u = userIn('America/Los_Angeles');
    const date = '2026-07-15';
    setFitbitWear(u, days(date, 3), 1440);
    // 13:30 in Los Angeles (UTC−7 in July).
    stopFitbitSync(u, Date.parse('2026-07-15T20:30:00Z'));
    expect(fitbitWearMinutes(u, addDays(date, -1))).toBeGreaterThan(0);
    expect(fitbitWearMinutes(u, date)).toBe(13 * 60 + 30);
    expect(Math.max(...sampledMinutes(u, date, '1min'))).toBe(13 * 60 + 29);
    expect(fitbitWearMinutes(u, addDays(date, 1))).toBe(0);
    expect(fitbitDay(u, addDays(date, 1))).toMatchObject({ worn: false, steps: 0, sleep: null });
    expect(
      fitbitIntradaySteps(u, date)
        .slice(13 * 60 + 30)
        .every((s) => s === 0),
    ).toBe(true);
    // Syncing again: the backlog arrives.
    stopFitbitSync(u, null);
    expect(fitbitWearMinutes(u, addDays(date, 1))).toBe(1440);
  });
});
