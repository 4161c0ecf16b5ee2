/*
 * Reading Google's answers for the legacy adapters: payload objects,
 * civil-day roll-ups and daily points per date, local times of instants,
 * and the user's zone (settings).
 */
import { addDays, isKnownZone } from '@trialwear/zone';
import { dateText, durationSeconds, type GoogleDate } from '../civil-time.js';
import type { GoogleHealthCalls, GoogleSettings, RollupPoint } from '../google-http.js';

export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

/** Rounded to `places` decimals (removes float noise of unit conversions). */
export const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** A civil-day rollup's date. */
export const rollupDate = (p: RollupPoint) => dateText(p.civilStartTime?.date);

export async function userZone(
  calls: GoogleHealthCalls,
): Promise<{ zone: string; settings: GoogleSettings }> {
  const settings = await calls.get<GoogleSettings>('/v4/users/me/settings');
  const zone =
    typeof settings.timeZone === 'string' && isKnownZone(settings.timeZone) ? settings.timeZone : 'UTC';
  return { zone, settings };
}

/** A day's total of one rollup payload field per civil date. */
export async function dailyValues(
  calls: GoogleHealthCalls,
  dataType: string,
  start: string,
  end: string,
  value: (payload: Json) => number | null,
): Promise<Map<string, number>> {
  const key = camel(dataType);
  const out = new Map<string, number>();
  for (const p of await calls.dailyRollUp(dataType, start, end)) {
    const date = rollupDate(p);
    if (!date || p[key] === undefined) continue; // no union key: no data that day (§3.5)
    const v = value(obj(p[key]));
    if (v !== null) out.set(date, (out.get(date) ?? 0) + v);
  }
  return out;
}

/** kebab-case data type → its lowerCamelCase payload key ('total-calories' → 'totalCalories'). */
export const camel = (t: string) => t.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const dateFilter = (member: string, start: string, end: string) =>
  `${member}.date >= "${start}" AND ${member}.date < "${addDays(end, 1)}"`;

/** A daily data type's payloads by date (the first point of a date wins: newest first). */
export async function dailyPoints(calls: GoogleHealthCalls, dataType: string, start: string, end: string) {
  const member = dataType.replaceAll('-', '_');
  const points = await calls.list(dataType, dateFilter(member, start, end), 1000);
  const out = new Map<string, Json>();
  for (const p of points) {
    const payload = obj(p[camel(dataType)]);
    const date = dateText(payload.date as GoogleDate | undefined);
    if (date && date >= start && date <= end && !out.has(date)) out.set(date, payload);
  }
  return out;
}

/** An instant with its offset → the legacy local time 'YYYY-MM-DDTHH:mm:ss.000'. */
export function localOf(instant: unknown, offset: unknown): string | null {
  const t = Date.parse(String(instant));
  const s = durationSeconds(offset);
  if (!Number.isFinite(t) || s === null) return null;
  return `${new Date(t + s * 1000).toISOString().slice(0, 19)}.000`;
}
