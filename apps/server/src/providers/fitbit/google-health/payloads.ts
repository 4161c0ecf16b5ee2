/*
 * Reading Google's bodies: payload objects, their lowerCamelCase keys,
 * rounding of unit conversions, the local time of an instant with its
 * offset, and the user's zone (settings). Pure, except `userZone` (a call).
 */
import { isKnownZone } from '@trialwear/zone';
import { durationSeconds } from './civil-time.js';
import type { GoogleHealthCalls, GoogleSettings } from './google-http.js';

export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
export const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as unknown[]).map(obj) : []);

/** Rounded to `places` decimals (removes float noise of unit conversions). */
export const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** kebab-case data type → its lowerCamelCase payload key ('total-calories' → 'totalCalories'). */
export const camel = (t: string) => t.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** An instant with its offset → the local time 'YYYY-MM-DDTHH:mm:ss' (null when either is unreadable). */
export function localOf(instant: unknown, offset: unknown): string | null {
  const t = Date.parse(String(instant));
  const s = durationSeconds(offset);
  if (!Number.isFinite(t) || s === null) return null;
  return new Date(t + s * 1000).toISOString().slice(0, 19);
}

/** A settings body's zone: its IANA zone when known, else null. */
export const zoneOfSettings = (settings: GoogleSettings | undefined): string | null =>
  typeof settings?.timeZone === 'string' && isKnownZone(settings.timeZone) ? settings.timeZone : null;

/** The user's zone from the settings (UTC when it names none the portal knows). */
export async function userZone(
  calls: GoogleHealthCalls,
): Promise<{ zone: string; settings: GoogleSettings }> {
  const settings = await calls.get<GoogleSettings>('/v4/users/me/settings');
  return { zone: zoneOfSettings(settings) ?? 'UTC', settings };
}
