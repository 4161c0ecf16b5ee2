/*
 * The legacy day's activity as Google reports it: the minutes per activity
 * level laid out as intervals, and the calories of each minute (total and
 * active energy) so that the day sums to the legacy totals.
 */
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { minuteInstants, stepsOf, sum } from './legacy-day.js';
import type { DayCtx } from './spec.js';

export const LEVELS = ['SEDENTARY', 'LIGHTLY_ACTIVE', 'MODERATELY_ACTIVE', 'VERY_ACTIVE'] as const;
export type Level = (typeof LEVELS)[number];
export const ACTIVE_MINUTES_LEVEL: Record<Level, string | null> = {
  SEDENTARY: null,
  LIGHTLY_ACTIVE: 'LIGHT',
  MODERATELY_ACTIVE: 'MODERATE',
  VERY_ACTIVE: 'VIGOROUS',
};

/**
 * The day's activity-level intervals: the legacy minutes per level, laid
 * out from (1440 − total − 60) minutes after midnight in turns of at most
 * 90 sedentary, 40 light, 15 moderate and 10 very active minutes, over the
 * minutes that exist that day; an interval never spans a missing minute.
 * Minutes off the wrist are not left out: the levels are Fitbit's own
 * classification of the day (legacy counts those minutes as sedentary), so
 * both APIs give the same minutes per level (decision 032; heart rate and
 * steps have no points off the wrist).
 */
export function activityChunks(
  dataUserId: string,
  date: string,
  tz: string,
): Array<{ level: Level; start: number; end: number; minutes: number[] }> {
  const d = fitbitDay(dataUserId, date);
  if (!d.worn) return [];
  const left: Record<Level, number> = {
    SEDENTARY: d.minutesSedentary,
    LIGHTLY_ACTIVE: d.minutesLightlyActive,
    MODERATELY_ACTIVE: d.minutesFairlyActive,
    VERY_ACTIVE: d.minutesVeryActive,
  };
  const caps: Record<Level, number> = {
    SEDENTARY: 90,
    LIGHTLY_ACTIVE: 40,
    MODERATELY_ACTIVE: 15,
    VERY_ACTIVE: 10,
  };
  const at = minuteInstants(tz, date);
  const total = sum(Object.values(left));
  const labels: Array<{ m: number; level: Level }> = [];
  let m = Math.max(0, 1440 - total - 60);
  while (sum(Object.values(left)) > 0 && m < 1440) {
    for (const level of LEVELS) {
      let n = Math.min(caps[level], left[level]);
      while (n > 0 && m < 1440) {
        if (!Number.isNaN(at[m]!)) {
          labels.push({ m, level });
          n -= 1;
          left[level] -= 1;
        }
        m += 1;
      }
    }
  }
  const chunks: Array<{ level: Level; start: number; end: number; minutes: number[] }> = [];
  for (const { m: minute, level } of labels) {
    const t = at[minute]!;
    const last = chunks[chunks.length - 1];
    if (last && last.level === level && last.end === t) {
      last.end = t + 60_000;
      last.minutes.push(minute);
    } else chunks.push({ level, start: t, end: t + 60_000, minutes: [minute] });
  }
  return chunks;
}

/**
 * Per existing minute, the day's calories in hundredths of a kcal: `total`
 * sums to the legacy `calories`, `active` to `calories − caloriesBMR`
 * (activityCalories). A minute is the legacy per-minute calories (basal
 * share + 0.04 kcal a step) plus 8 kcal when very active; what the day's
 * rounding and its missing or repeated minutes leave over is spread, cent by
 * cent, over its walking and very active minutes (over all minutes on a day
 * without any), for the basal and the total part alike, so a minute without
 * activity is exactly basal and has no active energy.
 */
export function calorieCents(c: DayCtx): Array<{ t: number; total: number; active: number }> {
  const d = fitbitDay(c.person.dataUserId, c.date);
  const steps = stepsOf(c.person.dataUserId, c.date);
  const at = minuteInstants(c.tz, c.date);
  const very = new Set(
    activityChunks(c.person.dataUserId, c.date, c.tz)
      .filter((x) => x.level === 'VERY_ACTIVE')
      .flatMap((x) => x.minutes),
  );
  const basal = Math.round((d.caloriesBMR / 1440) * 100);
  const minutes: Array<{ t: number; total: number; basal: number; busy: boolean }> = [];
  for (let m = 0; m < 1440; m++) {
    if (Number.isNaN(at[m]!)) continue;
    const busy = steps[m]! > 0 || very.has(m);
    const total = Math.round((d.caloriesBMR / 1440 + steps[m]! * 0.04) * 100) + (very.has(m) ? 800 : 0);
    minutes.push({ t: at[m]!, total, basal, busy });
  }
  const target = minutes.some((x) => x.busy) ? minutes.filter((x) => x.busy) : minutes;
  const share = (delta: number, i: number) => {
    const base = Math.trunc(delta / target.length);
    const rest = delta - base * target.length;
    return base + (i < Math.abs(rest) ? Math.sign(rest) : 0);
  };
  const dTotal = d.calories * 100 - sum(minutes.map((x) => x.total));
  const dBasal = d.caloriesBMR * 100 - sum(minutes.map((x) => x.basal));
  target.forEach((x, i) => {
    x.total += share(dTotal, i);
    x.basal += share(dBasal, i);
  });
  return minutes.map((x) => ({ t: x.t, total: x.total, active: x.total - x.basal }));
}
