/*
 * The legacy heart resources: the daily series (resting heart rate; no
 * zones, Google's zone model has no 1:1 map) and a day's intraday heart
 * rate (1sec from the samples, else the windows' averages).
 */

import type { FitbitResource } from '@trialwear/contract';
import { datesBetween, wallClock } from '@trialwear/zone';
import { type CivilDateTime, civilText, num } from '../civil-time.js';
import type { GoogleHealthCalls } from '../google-http.js';
import { dailyPoints, obj, userZone } from './google-payloads.js';
import { DETAIL_SECONDS, dayRange, timeWindow } from './intraday-window.js';

export async function restingHeartRates(calls: GoogleHealthCalls, start: string, end: string) {
  const out = new Map<string, number>();
  for (const [d, p] of await dailyPoints(calls, 'daily-resting-heart-rate', start, end)) {
    const v = num(p.beatsPerMinute);
    if (v !== null) out.set(d, v);
  }
  return out;
}

const heartDay = (date: string, rhr: number | undefined) => ({
  dateTime: date,
  value: {
    customHeartRateZones: [],
    heartRateZones: [],
    ...(rhr === undefined ? {} : { restingHeartRate: rhr }),
  },
});

export async function heartSeries(calls: GoogleHealthCalls, r: FitbitResource) {
  const rhr = await restingHeartRates(calls, r.start!, r.end!);
  return { 'activities-heart': datesBetween(r.start!, r.end!, 4000).map((d) => heartDay(d, rhr.get(d))) };
}

export async function heartIntraday(calls: GoogleHealthCalls, path: string, r: FitbitResource) {
  const detail = /\/1d\/(\w+)/.exec(path)![1]!;
  const { zone } = await userZone(calls);
  const { start, end } = dayRange(zone, r.start!);
  const [from, to] = [new Date(start).toISOString(), new Date(end).toISOString()];
  let dataset: Array<{ time: string; value: number }>;
  if (detail === '1sec') {
    const points = await calls.list(
      'heart-rate',
      `heart_rate.sample_time.physical_time >= "${from}" AND heart_rate.sample_time.physical_time < "${to}"`,
      10_000,
    );
    dataset = points
      .map((p) => {
        const h = obj(p.heartRate);
        const st = obj(h.sampleTime);
        const at = Date.parse(String(st.physicalTime));
        const local = civilText(st.civilTime as CivilDateTime | undefined) ?? wallClock(zone, at);
        return { at, time: local.slice(11, 19), value: num(h.beatsPerMinute) };
      })
      .filter(
        (x): x is { at: number; time: string; value: number } => x.value !== null && Number.isFinite(x.at),
      )
      .sort((a, b) => a.at - b.at)
      .map(({ time, value }) => ({ time, value }));
  } else {
    const seconds = DETAIL_SECONDS[detail]!;
    const points = await calls.rollUp('heart-rate', from, to, seconds);
    const byTime = new Map<string, number[]>();
    for (const p of points) {
      const avg = num(obj(p.heartRate).beatsPerMinuteAvg);
      if (avg === null) continue; // no on-wrist data in this window (§3.5)
      const time = wallClock(zone, Date.parse(String(p.startTime))).slice(11, 19);
      byTime.set(time, [...(byTime.get(time) ?? []), avg]);
    }
    dataset = [...byTime]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([time, vs]) => ({ time, value: Math.round(vs.reduce((a, b) => a + b, 0) / vs.length) }));
  }
  const inWindow = timeWindow(path);
  if (inWindow) dataset = dataset.filter((e) => inWindow(e.time));
  const rhr = (await restingHeartRates(calls, r.start!, r.start!)).get(r.start!);
  return {
    'activities-heart': [heartDay(r.start!, rhr)],
    'activities-heart-intraday': {
      dataset,
      datasetInterval: 1,
      datasetType: detail === '1sec' ? 'second' : 'minute',
    },
  };
}
