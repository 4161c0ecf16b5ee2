/*
 * The legacy body resources: weight and body fat logs and their daily
 * series, from Google's weight, body-fat and height samples (BMI computed
 * from the latest height).
 */

import type { FitbitResource } from '@trialwear/contract';
import { addDays, datesBetween } from '@trialwear/zone';
import { type CivilDateTime, civilText, num } from '../civil-time.js';
import type { GoogleHealthCalls } from '../google-http.js';
import { type Json, localOf, obj, round } from './google-payloads.js';

interface Weighing {
  date: string;
  time: string;
  kg: number;
  fat: number | null;
  bmi: number | null;
  logId: number | string;
  source: string;
}

const sampleFilter = (member: string, start: string, end: string) =>
  `${member}.sample_time.civil_time >= "${start}" AND ${member}.sample_time.civil_time < "${addDays(end, 1)}"`;

/** The local date and time of a sample (civil time; else the instant shifted by its offset). */
function sampleLocal(payload: Json): string | null {
  const st = obj(payload.sampleTime);
  return (
    civilText(st.civilTime as CivilDateTime | undefined) ??
    localOf(st.physicalTime, st.utcOffset)?.slice(0, 19) ??
    null
  );
}

async function weighings(calls: GoogleHealthCalls, start: string, end: string): Promise<Weighing[]> {
  const weights = await calls.list('weight', sampleFilter('weight', start, end), 1000);
  if (weights.length === 0) return [];
  const fats = new Map<string, number>();
  const fatByDate = new Map<string, number>();
  for (const p of await calls.list('body-fat', sampleFilter('body_fat', start, end), 1000)) {
    const b = obj(p.bodyFat);
    const at = sampleLocal(b);
    const pct = num(b.percentage);
    if (!at || pct === null) continue;
    if (!fats.has(at)) fats.set(at, pct);
    if (!fatByDate.has(at.slice(0, 10))) fatByDate.set(at.slice(0, 10), pct);
  }
  // BMI is not in the API: weight over the square of the latest height (§6 row 12).
  const heights = await calls.list('height', `height.sample_time.civil_time < "${addDays(end, 1)}"`, 1);
  const mm = num(obj(heights[0]?.height).heightMillimeters);
  const out: Weighing[] = [];
  for (const p of weights) {
    const w = obj(p.weight);
    const at = sampleLocal(w);
    const g = num(w.weightGrams);
    if (!at || g === null) continue;
    const kg = round(g / 1000, 3);
    const fat = fats.get(at) ?? fatByDate.get(at.slice(0, 10)) ?? null;
    const name = typeof p.name === 'string' ? p.name.split('/').pop()! : '';
    out.push({
      date: at.slice(0, 10),
      time: at.slice(11, 19),
      kg,
      fat: fat === null ? null : round(fat, 3),
      bmi: mm ? round(kg / (mm / 1000) ** 2, 2) : null,
      logId: /^\d+$/.test(name) ? Number(name) : name || Date.parse(String(obj(w.sampleTime).physicalTime)),
      source:
        p.dataSource?.device?.displayName ?? (p.dataSource?.recordingMethod === 'MANUAL' ? 'Web' : 'API'),
    });
  }
  return out.sort((a, b) => `${a.date}T${a.time}`.localeCompare(`${b.date}T${b.time}`));
}

export async function bodyLog(calls: GoogleHealthCalls, kind: string, r: FitbitResource) {
  const logs = await weighings(calls, r.start!, r.end!);
  if (kind === 'fat')
    return {
      fat: logs
        .filter((w) => w.fat !== null)
        .map((w) => ({ date: w.date, fat: w.fat, logId: w.logId, source: w.source, time: w.time })),
    };
  return {
    weight: logs.map((w) => ({
      ...(w.bmi === null ? {} : { bmi: w.bmi }),
      date: w.date,
      fat: w.fat,
      logId: w.logId,
      source: w.source,
      time: w.time,
      weight: w.kg,
    })),
  };
}

export async function bodySeries(
  calls: GoogleHealthCalls,
  kind: 'weight' | 'fat' | 'bmi',
  r: FitbitResource,
) {
  const last = new Map<string, Weighing>();
  for (const w of await weighings(calls, r.start!, r.end!)) last.set(w.date, w);
  return {
    [`body-${kind}`]: datesBetween(r.start!, r.end!, 4000).map((d) => {
      const w = last.get(d);
      const v = !w ? 0 : kind === 'weight' ? w.kg : kind === 'fat' ? (w.fat ?? 0) : (w.bmi ?? 0);
      return { dateTime: d, value: String(v) };
    }),
  };
}
