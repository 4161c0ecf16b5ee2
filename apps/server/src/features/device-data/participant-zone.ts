/*
 * The participant's IANA time zone, from the Fitbit profile
 * (/1/user/-/profile.json `timezone`). Every Fitbit date and time is local
 * to it, so each answer carries it; reading the profile before every data
 * call would double the provider calls (and the 150/hour budget), so it is
 * kept per link in memory for a few hours. The zone only changes when the
 * participant moves it in their Fitbit settings; DST needs no refresh, as the
 * zone's rules give each instant its offset. Keyed by the link and its
 * provider account: a re-link to another account reads the profile again.
 */
import { isKnownZone } from '@trialwear/zone';
import type { ProviderAnswer } from '../../providers/types.js';

export const ZONE_TTL_MS = 6 * 3_600_000;

interface Cached {
  zone: string;
  until: number;
}

/** One cache per provider registry (one per running app), so test apps never share entries. */
const caches = new WeakMap<object, Map<string, Cached>>();

export async function participantZone(
  owner: object,
  link: { id: number; provider_user_id: string | null },
  now: Date,
  readProfile: () => Promise<ProviderAnswer>,
): Promise<string> {
  const cache = caches.get(owner) ?? new Map<string, Cached>();
  caches.set(owner, cache);
  const key = `${link.id}:${link.provider_user_id ?? ''}`;
  const hit = cache.get(key);
  if (hit && hit.until > now.getTime()) return hit.zone;
  const profile = (await readProfile()).body as { user?: { timezone?: unknown } } | null;
  const tz = profile?.user?.timezone;
  // A profile without a zone the runtime knows: UTC, as Fitbit's own default.
  const zone = typeof tz === 'string' && isKnownZone(tz) ? tz : 'UTC';
  cache.set(key, { zone, until: now.getTime() + ZONE_TTL_MS });
  return zone;
}

/** Forget a link's zone (tests, or after a re-link). */
export function forgetZone(owner: object, linkId: number) {
  const cache = caches.get(owner);
  if (!cache) return;
  for (const k of cache.keys()) if (k.startsWith(`${linkId}:`)) cache.delete(k);
}
