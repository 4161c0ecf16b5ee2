/*
 * The `/overview` resource: 14 local days per subject (oldest first),
 * computed from six provider series read for the window ending on the
 * participant's local today: steps, distance and floors (activity time
 * series), resting heart rate (heart time series), sleep duration (sleep by
 * date range: minutesAsleep of the main sleep per dateOfSleep) and weight
 * (body weight log: the day's last weighing). A step, distance or floor
 * count of 0 is a day the tracker was not worn (Fitbit answers "0" for days
 * without data) and is no value; so is a missing resting heart rate, sleep
 * or weighing.
 */
import type { DayValue, SummarySubject } from '@trialwear/contract';

export type OverviewSource = 'steps' | 'distance' | 'floors' | 'heart' | 'sleep' | 'weight';

/** The tracker resource paths the overview reads for the dates from `start` to `end`. */
export function overviewPaths(start: string, end: string): Record<OverviewSource, string> {
  return {
    steps: `/activities/steps/date/${start}/${end}.json`,
    distance: `/activities/distance/date/${start}/${end}.json`,
    floors: `/activities/floors/date/${start}/${end}.json`,
    heart: `/activities/heart/date/${start}/${end}.json`,
    sleep: `/sleep/date/${start}/${end}.json`,
    weight: `/body/log/weight/date/${start}/${end}.json`,
  };
}

type Body = Record<string, unknown> | null;
const list = (body: Body, key: string) => {
  const v = body?.[key];
  return Array.isArray(v) ? (v as Array<Record<string, unknown>>) : [];
};
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

function activity(body: Body, resource: string): Map<string, number | null> {
  return new Map(
    list(body, `activities-${resource}`).map((e) => {
      const v = num(e.value);
      return [String(e.dateTime), v === 0 ? null : v];
    }),
  );
}

function restingHeartRate(body: Body): Map<string, number | null> {
  return new Map(
    list(body, 'activities-heart').map((e) => [
      String(e.dateTime),
      num((e.value as { restingHeartRate?: unknown } | undefined)?.restingHeartRate),
    ]),
  );
}

function mainSleep(body: Body): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const s of list(body, 'sleep')) {
    if (s.isMainSleep !== true) continue;
    const date = String(s.dateOfSleep);
    const m = num(s.minutesAsleep);
    if (m !== null) out.set(date, (out.get(date) ?? 0) + m);
  }
  return out;
}

function lastWeighing(body: Body): Map<string, number | null> {
  const out = new Map<string, { time: string; kg: number }>();
  for (const w of list(body, 'weight')) {
    const kg = num(w.weight);
    const date = String(w.date);
    const time = String(w.time ?? '');
    if (kg === null) continue;
    const prev = out.get(date);
    if (!prev || prev.time <= time) out.set(date, { time, kg });
  }
  return new Map([...out].map(([d, v]) => [d, v.kg]));
}

/** The six series over `dates` (oldest first), null where no value was recorded. */
export function overviewSeries(
  bodies: Record<OverviewSource, unknown>,
  dates: readonly string[],
): Record<SummarySubject, DayValue[]> {
  const b = bodies as Record<OverviewSource, Body>;
  const maps: Record<SummarySubject, Map<string, number | null>> = {
    steps: activity(b.steps, 'steps'),
    distance: activity(b.distance, 'distance'),
    floors: activity(b.floors, 'floors'),
    restingHeartRate: restingHeartRate(b.heart),
    sleepDuration: mainSleep(b.sleep),
    weight: lastWeighing(b.weight),
  };
  const series = {} as Record<SummarySubject, DayValue[]>;
  for (const [subject, values] of Object.entries(maps) as Array<[SummarySubject, Map<string, number | null>]>)
    series[subject] = dates.map((date) => ({ date, value: values.get(date) ?? null }));
  return series;
}
