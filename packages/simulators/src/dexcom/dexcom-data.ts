/*
 * Deterministic Dexcom v3 records (providers.md §3.3, §3.7): a glucose value
 * every 5 minutes with meal rises after breakfast, lunch and dinner, a calm
 * night, and sensor warm-up gaps; trend and trendRate from the 5-minute change.
 */
import { createHash } from 'node:crypto';
import { localIso, offsetMinutesAt, offsetText } from '../zone.js';

const rnd = (seed: string) => createHash('sha256').update(seed).digest().readUInt32BE(0) / 0xffffffff;
const FIVE_MIN = 5 * 60_000;

export const dexcomUserHash = (userId: string) =>
  createHash('sha256').update(`dexcom-user:${userId}`).digest('hex');
const transmitterId = (userId: string) => createHash('sha256').update(`tx:${userId}`).digest('hex');

function glucoseAt(userId: string, t: number): number | null {
  // A 2-hour gap every ~10 days (sensor change) at a user-specific hour.
  const day = Math.floor(t / 86_400_000);
  if (day % 10 === Math.floor(rnd(`${userId}:gapday`) * 10)) {
    const hour = new Date(t).getUTCHours();
    if (hour >= 10 && hour < 12) return null;
  }
  // Meals follow the user's local clock (DST included).
  const localHour = (((t / 3_600_000 + offsetMinutesAt(dexcomZone(userId), t) / 60) % 24) + 24) % 24;
  const base = 95 + rnd(`${userId}:base`) * 30;
  const meal = (h: number, peak: number) => {
    const dt = localHour - h;
    return dt > 0 && dt < 3 ? peak * Math.sin((Math.PI * dt) / 3) : 0;
  };
  const value =
    base +
    meal(7.5, 45 + rnd(`${userId}:${day}:b`) * 40) +
    meal(12.5, 35 + rnd(`${userId}:${day}:l`) * 40) +
    meal(18.5, 45 + rnd(`${userId}:${day}:d`) * 50) +
    (rnd(`${userId}:${Math.floor(t / FIVE_MIN)}`) - 0.5) * 8;
  return Math.max(40, Math.min(400, Math.round(value)));
}

function trendOf(rate: number) {
  if (rate <= -3) return 'doubleDown';
  if (rate <= -2) return 'singleDown';
  if (rate <= -1) return 'fortyFiveDown';
  if (rate < 1) return 'flat';
  if (rate < 2) return 'fortyFiveUp';
  if (rate < 3) return 'singleUp';
  return 'doubleUp';
}

const systemTime = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** What the phone showed: local time with the offset of that instant (mobile records carry offsets). */
function displayTime(t: number, tz: string) {
  return `${localIso(tz, t).slice(0, 19)}${offsetText(offsetMinutesAt(tz, t))}`;
}

const ZONES = ['America/Los_Angeles', 'America/New_York', 'Europe/Berlin', 'Europe/London'] as const;

/** The user's IANA zone (with DST): displayTime offsets change with it. */
export function dexcomZone(userId: string) {
  return ZONES[Math.floor(rnd(`${userId}:off`) * 4)]!;
}

/** EGVs with systemTime in [from, to). */
export function dexcomEgvs(userId: string, from: number, to: number) {
  const tz = dexcomZone(userId);
  const records = [];
  for (let t = Math.ceil(from / FIVE_MIN) * FIVE_MIN; t < to; t += FIVE_MIN) {
    const value = glucoseAt(userId, t);
    if (value === null) continue;
    const prev = glucoseAt(userId, t - FIVE_MIN);
    const rate = prev === null ? null : Math.round(((value - prev) / 5) * 10) / 10;
    records.push({
      recordId: createHash('sha256')
        .update(`egv:${userId}:${t}`)
        .digest('hex')
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5'),
      systemTime: systemTime(t),
      displayTime: displayTime(t, tz),
      transmitterId: transmitterId(userId),
      transmitterTicks: Math.floor(t / 1000) % 10_000_000,
      value,
      status: null,
      trend: rate === null ? 'notComputable' : trendOf(rate),
      trendRate: rate,
      unit: 'mg/dL',
      rateUnit: 'mg/dL/min',
      displayDevice: 'iOS',
      transmitterGeneration: 'g7',
    });
  }
  return records;
}

export function dexcomDevices(userId: string, now: number) {
  return [
    {
      lastUploadDate: systemTime(now - (Math.floor(rnd(`${userId}:up`) * 60) + 5) * 60_000),
      transmitterId: transmitterId(userId),
      transmitterGeneration: 'g7',
      displayDevice: 'iOS',
      displayApp: 'G7',
      alertSchedules: [],
    },
  ];
}
