/*
 * Deterministic Dexcom v3 records (providers.md §3.3, §3.7): a glucose value
 * every 5 minutes with meal rises after breakfast, lunch and dinner, a calm
 * night, and sensor warm-up gaps; trend and trendRate from the 5-minute change;
 * finger-stick calibrations (about one a week, the EGV ± 10–15 %) and the
 * events the participant logs (carbs and fast-acting insulin at meals,
 * long-acting insulin at night, exercise some evenings), on their local clock.
 */
import { createHash } from 'node:crypto';
import { instantOfLocal, localDate, offsetMinutesAt, offsetText, wallClockMs } from '@trialwear/zone';

const rnd = (seed: string) => createHash('sha256').update(seed).digest().readUInt32BE(0) / 0xffffffff;
const FIVE_MIN = 5 * 60_000;

/**
 * rnd for the seeds that stay the same over many readings (a user's base, zone and gap day; a
 * day's meals): the same numbers, hashed once instead of for every 5-minute reading (a 90-day read
 * hashed about 400,000 times). Bounded: a long-running simulator starts it afresh.
 */
const steadyRnd = new Map<string, number>();
function rndOnce(seed: string): number {
  let r = steadyRnd.get(seed);
  if (r === undefined) {
    if (steadyRnd.size >= 50_000) steadyRnd.clear();
    r = rnd(seed);
    steadyRnd.set(seed, r);
  }
  return r;
}

export const dexcomUserHash = (userId: string) =>
  createHash('sha256').update(`dexcom-user:${userId}`).digest('hex');
const transmitterId = (userId: string) => createHash('sha256').update(`tx:${userId}`).digest('hex');

function glucoseAt(userId: string, t: number): number | null {
  // A 2-hour gap every ~10 days (sensor change) at a user-specific hour.
  const day = Math.floor(t / 86_400_000);
  if (day % 10 === Math.floor(rndOnce(`${userId}:gapday`) * 10)) {
    const hour = new Date(t).getUTCHours();
    if (hour >= 10 && hour < 12) return null;
  }
  // Meals follow the user's local clock (DST included).
  const localHour = (((t / 3_600_000 + offsetMinutesAt(dexcomZone(userId), t) / 60) % 24) + 24) % 24;
  const base = 95 + rndOnce(`${userId}:base`) * 30;
  const meal = (h: number, peak: number) => {
    const dt = localHour - h;
    return dt > 0 && dt < 3 ? peak * Math.sin((Math.PI * dt) / 3) : 0;
  };
  const value =
    base +
    meal(7.5, 45 + rndOnce(`${userId}:${day}:b`) * 40) +
    meal(12.5, 35 + rndOnce(`${userId}:${day}:l`) * 40) +
    meal(18.5, 45 + rndOnce(`${userId}:${day}:d`) * 50) +
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
  return `${wallClockMs(tz, t).slice(0, 19)}${offsetText(offsetMinutesAt(tz, t))}`;
}

const ZONES = ['America/Los_Angeles', 'America/New_York', 'Europe/Berlin', 'Europe/London'] as const;

/** The user's IANA zone (with DST): displayTime offsets change with it. */
export function dexcomZone(userId: string) {
  return ZONES[Math.floor(rndOnce(`${userId}:off`) * 4)]!;
}

/** EGVs with systemTime in [from, to). */
export function dexcomEgvs(userId: string, from: number, to: number) {
  const tz = dexcomZone(userId);
  const transmitter = transmitterId(userId);
  const records = [];
  const first = Math.ceil(from / FIVE_MIN) * FIVE_MIN;
  let prev = glucoseAt(userId, first - FIVE_MIN);
  for (let t = first; t < to; t += FIVE_MIN) {
    const value = glucoseAt(userId, t);
    const before = prev;
    prev = value;
    if (value === null) continue;
    const rate = before === null ? null : Math.round(((value - before) / 5) * 10) / 10;
    records.push({
      recordId: createHash('sha256')
        .update(`egv:${userId}:${t}`)
        .digest('hex')
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5'),
      systemTime: systemTime(t),
      displayTime: displayTime(t, tz),
      transmitterId: transmitter,
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

const uuid = (seed: string) =>
  createHash('sha256')
    .update(seed)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5');

/**
 * Calibrations with systemTime in [from, to): on about one UTC day in seven,
 * at a minute of that day off the EGV grid, the EGV then ± 10–15 %
 * (providers.md §3.7); none during a sensor gap.
 */
export function dexcomCalibrations(userId: string, from: number, to: number) {
  const tz = dexcomZone(userId);
  const records = [];
  for (let day = Math.floor(from / 86_400_000); day * 86_400_000 < to; day++) {
    if (rnd(`${userId}:${day}:cal`) >= 1 / 7) continue;
    const t =
      day * 86_400_000 + (6 * 60 + Math.floor(rnd(`${userId}:${day}:calt`) * 14 * 60)) * 60_000 + 60_000;
    if (t < from || t >= to) continue;
    const egv = glucoseAt(userId, Math.floor(t / FIVE_MIN) * FIVE_MIN);
    if (egv === null) continue;
    const sign = rnd(`${userId}:${day}:cals`) < 0.5 ? -1 : 1;
    const value = Math.round(egv * (1 + sign * (0.1 + rnd(`${userId}:${day}:calv`) * 0.05)));
    records.push({
      recordId: uuid(`cal:${userId}:${t}`),
      systemTime: systemTime(t),
      displayTime: displayTime(t, tz),
      unit: 'mg/dL',
      value,
      displayDevice: 'iOS',
      transmitterId: transmitterId(userId),
      transmitterTicks: Math.floor(t / 1000) % 10_000_000,
      transmitterGeneration: 'g7',
    });
  }
  return records;
}

/** One logged event (providers.md §3.3 event record; v3 sends the value as a string). */
interface EventSpec {
  at: number;
  eventType: 'carbs' | 'insulin' | 'exercise';
  eventSubType: 'fastActing' | 'longActing' | 'light' | 'medium' | 'heavy' | null;
  value: string;
  unit: 'grams' | 'units' | 'minutes';
}

/**
 * Events with systemTime in [from, to), on the user's local clock (DST
 * included): at most meals (07:30, 12:30, 18:30, four in five logged) carbs
 * of 15–90 g with fast-acting insulin of 2–12 units two minutes before;
 * long-acting insulin of 10–40 units at 22:00; on about one evening in three
 * 20–60 minutes of exercise at 17:00. No two at the same instant.
 */
export function dexcomEvents(userId: string, from: number, to: number) {
  const tz = dexcomZone(userId);
  const specs: EventSpec[] = [];
  const first = Date.parse(`${localDate(tz, from)}T00:00:00Z`) - 86_400_000;
  const last = Date.parse(`${localDate(tz, to)}T00:00:00Z`) + 86_400_000;
  for (let d = first; d <= last; d += 86_400_000) {
    const date = new Date(d).toISOString().slice(0, 10);
    const r = (k: string) => rnd(`${userId}:${date}:ev:${k}`);
    const at = (hhmm: string) => instantOfLocal(tz, `${date}T${hhmm}`);
    for (const [meal, time] of [
      ['b', '07:30'],
      ['l', '12:30'],
      ['d', '18:30'],
    ] as const) {
      if (r(`${meal}log`) >= 0.8) continue;
      const t = at(time);
      specs.push({
        at: t - 120_000,
        eventType: 'insulin',
        eventSubType: 'fastActing',
        value: String(Math.round((2 + r(`${meal}ins`) * 10) * 10) / 10),
        unit: 'units',
      });
      specs.push({
        at: t,
        eventType: 'carbs',
        eventSubType: null,
        value: String(15 + Math.round(r(`${meal}carbs`) * 75)),
        unit: 'grams',
      });
    }
    specs.push({
      at: at('22:00'),
      eventType: 'insulin',
      eventSubType: 'longActing',
      value: String(10 + Math.round(r('basal') * 30)),
      unit: 'units',
    });
    if (r('ex') < 1 / 3)
      specs.push({
        at: at('17:00'),
        eventType: 'exercise',
        eventSubType: (['light', 'medium', 'heavy'] as const)[Math.floor(r('exk') * 3)]!,
        value: String(20 + Math.round(r('exm') * 40)),
        unit: 'minutes',
      });
  }
  return specs
    .filter((e) => e.at >= from && e.at < to)
    .sort((x, y) => x.at - y.at)
    .map((e) => ({
      recordId: uuid(`event:${userId}:${e.at}`),
      systemTime: systemTime(e.at),
      displayTime: displayTime(e.at, tz),
      eventStatus: 'created',
      eventType: e.eventType,
      eventSubType: e.eventSubType,
      value: e.value,
      unit: e.unit,
      transmitterId: transmitterId(userId),
      transmitterGeneration: 'g7',
      displayDevice: 'iOS',
    }));
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
