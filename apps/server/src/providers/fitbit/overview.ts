/*
 * The `/overview` resource: 14 local days per subject (oldest first),
 * computed from the normalized series of six reads for the window ending on
 * the participant's local today: steps, distance and floors (activity time
 * series), resting heart rate (heart time series), sleep duration (the main
 * sleep's minutes asleep per date of sleep) and weight (the weight log: the
 * day's last weighing). One rule for "no data" and 0 everywhere (issue #26,
 * the data dictionary's no_data_vs_zero): a day the provider reports as 0 is
 * 0 (Fitbit's activity series answer "0" for a day the tracker recorded
 * nothing, and the tables, charts and exports show it so); a day the
 * provider has no record for — no resting heart rate, sleep or weighing — is
 * no value.
 */
import { type DayValue, type Series, type SummarySubject, seriesOf } from '@trialwear/contract';

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

type Values = Map<string, number | null>;

const days = (s: Series | undefined): Values => new Map((s?.days ?? []).map((d) => [d.date, d.value]));

/** Minutes asleep of the main sleep(s) per date of sleep. */
function mainSleep(s: Series | undefined): Values {
  const out: Values = new Map();
  for (const p of s?.points ?? []) {
    if (p.detail?.isMainSleep !== true || p.value === null) continue;
    out.set(p.date, (out.get(p.date) ?? 0) + p.value);
  }
  return out;
}

/** The last weighing of each local date. */
function lastWeighing(s: Series | undefined): Values {
  const out = new Map<string, { time: string; kg: number }>();
  for (const p of s?.points ?? []) {
    if (p.value === null) continue;
    const prev = out.get(p.date);
    if (!prev || prev.time <= p.time) out.set(p.date, { time: p.time, kg: p.value });
  }
  return new Map([...out].map(([d, v]) => [d, v.kg]));
}

/** The six subjects over `dates` (oldest first) from each read's series, null where no value was recorded. */
export function overviewSeries(
  read: Record<OverviewSource, readonly Series[]>,
  dates: readonly string[],
): Record<SummarySubject, DayValue[]> {
  const maps: Record<SummarySubject, Values> = {
    steps: days(seriesOf(read.steps, 'steps')),
    distance: days(seriesOf(read.distance, 'distance')),
    floors: days(seriesOf(read.floors, 'floors')),
    restingHeartRate: days(seriesOf(read.heart, 'resting_heart_rate')),
    sleepDuration: mainSleep(seriesOf(read.sleep, 'sleep_duration')),
    weight: lastWeighing(seriesOf(read.weight, 'weight')),
  };
  const out = {} as Record<SummarySubject, DayValue[]>;
  for (const [subject, values] of Object.entries(maps) as Array<[SummarySubject, Values]>)
    out[subject] = dates.map((date) => ({ date, value: values.get(date) ?? null }));
  return out;
}
