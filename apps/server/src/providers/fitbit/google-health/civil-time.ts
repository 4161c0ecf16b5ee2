/*
 * Civil (local) dates and times of the Google Health API
 * (google-health-api.md §3.8): Google's `google.type.Date` and
 * `CivilDateTime` objects ↔ 'YYYY-MM-DD' and 'HH:mm:ss' texts, and proto3
 * JSON numbers and durations. Pure functions; the zone arithmetic (wall clocks,
 * local midnights) is @trialwear/zone's.
 */

export interface GoogleDate {
  year?: number;
  month?: number;
  day?: number;
}
export interface GoogleTimeOfDay {
  hours?: number;
  minutes?: number;
  seconds?: number;
}
export interface CivilDateTime {
  date?: GoogleDate;
  time?: GoogleTimeOfDay;
}

const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/** 'YYYY-MM-DD' → Google's Date object (numbers: a leading zero would be invalid JSON). */
export const googleDate = (d: string): GoogleDate => ({
  year: Number(d.slice(0, 4)),
  month: Number(d.slice(5, 7)),
  day: Number(d.slice(8, 10)),
});

/** Google's Date object → 'YYYY-MM-DD' (null when incomplete). */
export function dateText(d: GoogleDate | undefined): string | null {
  if (!d?.year || !d.month || !d.day) return null;
  return `${String(d.year).padStart(4, '0')}-${two(d.month)}-${two(d.day)}`;
}

/** Google's TimeOfDay → 'HH:mm:ss' (omitted fields are zero, proto3 JSON). */
export const timeText = (t: GoogleTimeOfDay | undefined) =>
  `${two(t?.hours)}:${two(t?.minutes)}:${two(t?.seconds)}`;

/** CivilDateTime → 'YYYY-MM-DDTHH:mm:ss' (null without a date). */
export function civilText(c: CivilDateTime | undefined): string | null {
  const d = dateText(c?.date);
  return d ? `${d}T${timeText(c?.time)}` : null;
}

/** A proto3 Duration ("5400s", "-14400s", "1.5s") → seconds; null when absent or unreadable. */
export function durationSeconds(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = /^(-?\d+(?:\.\d+)?)s$/.exec(v);
  return m ? Number(m[1]) : null;
}

/** An int64 (a JSON string in proto3 JSON) or a double → number; null when absent. */
export function num(v: unknown): number | null {
  const n = typeof v === 'string' && v !== '' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isFinite(n) ? n : null;
}
