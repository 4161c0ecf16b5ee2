/*
 * Legacy Fitbit answers from the Google Health API (google-health-api.md §6).
 * Each allow-listed tracker resource path of the contract is answered in the
 * legacy Web API's shape — same keys, metric units, the user's local dates
 * and times — computed from the Google calls that replace it, so the data
 * pages, the overview, the local summary, the sync and the export read a
 * Google Health link exactly as a legacy one.
 *
 * Rules (§6 "general adapter rules"): daily totals from dailyRollUp (it
 * merges sources as the Fitbit app does; list would double-count), days
 * bucketed by Google's civil dates (never by physical time), int64 strings
 * parsed, SI units converted to the legacy metric ones (mm → km or m,
 * g → kg, Duration → minutes). Legacy activity series list every day of the
 * range with "0" where there was no data; so does this adapter.
 *
 * Known gaps, documented in ARCHITECTURE.md: the heart series carries no
 * heart-rate zones (Google's zone model has no 1:1 map); SpO2 has the
 * average only (Google's bounds are confidence bounds, not the night's
 * min/max); the cardio score is one number, not the legacy range; sleep
 * stage averages over 30 days are absent.
 */
import type { FitbitResource } from '@trialwear/contract';
import { isKnownZone, wallClock } from '../../../time/zone.js';
import {
  addDays,
  type CivilDateTime,
  civilText,
  datesFrom,
  dateText,
  durationSeconds,
  type GoogleDate,
  localMidnight,
  num,
} from './civil-time.js';
import {
  type DataPoint,
  GoogleCallFailed,
  type GoogleHealthCalls,
  type GoogleSettings,
  type RollupPoint,
} from './google-http.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

/** Rounded to `places` decimals (removes float noise of unit conversions). */
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** A civil-day rollup's date. */
const rollupDate = (p: RollupPoint) => dateText(p.civilStartTime?.date);

export class UnsupportedResource extends Error {}

// ---------------------------------------------------------------- time zone

export async function userZone(
  calls: GoogleHealthCalls,
): Promise<{ zone: string; settings: GoogleSettings }> {
  const settings = await calls.get<GoogleSettings>('/v4/users/me/settings');
  const zone =
    typeof settings.timeZone === 'string' && isKnownZone(settings.timeZone) ? settings.timeZone : 'UTC';
  return { zone, settings };
}

/** `/1/user/-/profile.json`'s part the portal reads: the zone and its current offset. */
export async function profileAnswer(calls: GoogleHealthCalls) {
  const { zone, settings } = await userZone(calls);
  const offset = durationSeconds(settings.utcOffset);
  return { user: { timezone: zone, ...(offset === null ? {} : { offsetFromUTCMillis: offset * 1000 }) } };
}

// ---------------------------------------------------------- activity series

type ActivityResource =
  | 'steps'
  | 'distance'
  | 'floors'
  | 'elevation'
  | 'calories'
  | 'caloriesBMR'
  | 'activityCalories'
  | 'minutesSedentary'
  | 'minutesLightlyActive'
  | 'minutesFairlyActive'
  | 'minutesVeryActive';

const LEVEL_OF: Record<string, string> = {
  minutesSedentary: 'SEDENTARY',
  minutesLightlyActive: 'LIGHTLY_ACTIVE',
  minutesFairlyActive: 'MODERATELY_ACTIVE',
  minutesVeryActive: 'VERY_ACTIVE',
};

/** A day's total of one rollup payload field per civil date. */
async function dailyValues(
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

/**
 * Minutes per activity level per civil day: the activity-level dailyRollUp,
 * else (⚠ §7.6: not every source lists its roll-ups) the list's intervals
 * summed per civil start date. A date is absent when it has no data at all.
 */
async function activityLevels(
  calls: GoogleHealthCalls,
  start: string,
  end: string,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const add = (date: string, level: string, minutes: number) => {
    const day = out.get(date) ?? new Map<string, number>();
    day.set(level, (day.get(level) ?? 0) + minutes);
    out.set(date, day);
  };
  try {
    for (const p of await calls.dailyRollUp('activity-level', start, end)) {
      const date = rollupDate(p);
      if (!date || p.activityLevel === undefined) continue;
      const rows = obj(p.activityLevel).activityLevelRollupsByActivityLevelType;
      for (const r of Array.isArray(rows) ? (rows as Json[]) : [])
        add(date, String(r.activityLevelType), (durationSeconds(r.totalDuration) ?? 0) / 60);
      if (!out.has(date)) out.set(date, new Map());
    }
  } catch (err) {
    if (!(err instanceof GoogleCallFailed) || err.failure.status !== 400) throw err;
    out.clear();
    const points = await calls.list(
      'activity-level',
      `activity_level.interval.civil_start_time >= "${start}" AND activity_level.interval.civil_start_time < "${addDays(end, 1)}"`,
      10_000,
    );
    for (const p of points) {
      const a = obj(p.activityLevel);
      const i = obj(a.interval);
      const date = dateText(obj(i.civilStartTime).date as GoogleDate | undefined);
      const seconds = (Date.parse(String(i.endTime)) - Date.parse(String(i.startTime))) / 1000;
      if (date && Number.isFinite(seconds)) add(date, String(a.activityLevelType), seconds / 60);
    }
  }
  return out;
}

/** The legacy minutes of one level per day (a day without data: sedentary all day, as legacy Fitbit counted it). */
async function activityLevelMinutes(calls: GoogleHealthCalls, start: string, end: string, resource: string) {
  const levels = await activityLevels(calls, start, end);
  const level = LEVEL_OF[resource]!;
  return new Map(
    datesFrom(start, end).map((d) => {
      const day = levels.get(d);
      if (!day) return [d, level === 'SEDENTARY' ? 1440 : 0] as const;
      return [d, Math.round(day.get(level) ?? 0)] as const;
    }),
  );
}

async function activityDaily(
  calls: GoogleHealthCalls,
  resource: ActivityResource,
  start: string,
  end: string,
): Promise<Map<string, number>> {
  switch (resource) {
    case 'steps':
      return dailyValues(calls, 'steps', start, end, (p) => num(p.countSum));
    case 'distance': {
      const mm = await dailyValues(calls, 'distance', start, end, (p) => num(p.millimetersSum));
      return new Map([...mm].map(([d, v]) => [d, round(v / 1e6, 6)]));
    }
    case 'floors':
      return dailyValues(calls, 'floors', start, end, (p) => num(p.countSum));
    case 'elevation': {
      const mm = await dailyValues(calls, 'altitude', start, end, (p) => num(p.gainMillimetersSum));
      // Metres with two decimals, as the legacy API gave them.
      return new Map([...mm].map(([d, v]) => [d, round(v / 1000, 2)]));
    }
    case 'calories':
      return rounded(await dailyValues(calls, 'total-calories', start, end, (p) => num(p.kcalSum)));
    case 'activityCalories':
      return rounded(await dailyValues(calls, 'active-energy-burned', start, end, (p) => num(p.kcalSum)));
    case 'caloriesBMR': {
      // The basal part of the day's burn: total − active (basal-energy-burned has no roll-up).
      const total = await activityDaily(calls, 'calories', start, end);
      const active = await activityDaily(calls, 'activityCalories', start, end);
      return new Map([...total].map(([d, v]) => [d, v - (active.get(d) ?? 0)]));
    }
    default:
      return activityLevelMinutes(calls, start, end, resource);
  }
}
const rounded = (m: Map<string, number>) => new Map([...m].map(([d, v]) => [d, Math.round(v)]));

async function activitySeries(calls: GoogleHealthCalls, path: string, r: FitbitResource) {
  const m = /^\/activities\/(tracker\/)?(\w+)\/date\//.exec(path)!;
  const resource = m[2] as ActivityResource;
  const values = await activityDaily(calls, resource, r.start!, r.end!);
  return {
    [`activities-${m[1] ? 'tracker-' : ''}${resource}`]: datesFrom(r.start!, r.end!).map((d) => ({
      dateTime: d,
      value: String(values.get(d) ?? 0),
    })),
  };
}

/** `/activities/date/{date}.json`: the day's summary (goals and logged activities are not in the Google API). */
async function activityDay(calls: GoogleHealthCalls, date: string) {
  const v = async (r: ActivityResource) => (await activityDaily(calls, r, date, date)).get(date) ?? 0;
  const [steps, distance, floors, elevation, calories, active, sedentary, lightly, fairly, very] = [
    await v('steps'),
    await v('distance'),
    await v('floors'),
    await v('elevation'),
    await v('calories'),
    await v('activityCalories'),
    await v('minutesSedentary'),
    await v('minutesLightlyActive'),
    await v('minutesFairlyActive'),
    await v('minutesVeryActive'),
  ];
  const rhr = (await restingHeartRates(calls, date, date)).get(date);
  return {
    activities: [],
    summary: {
      activityCalories: active,
      caloriesBMR: calories - active,
      caloriesOut: calories,
      steps,
      floors,
      elevation,
      sedentaryMinutes: sedentary,
      lightlyActiveMinutes: lightly,
      fairlyActiveMinutes: fairly,
      veryActiveMinutes: very,
      distances: [
        { activity: 'total', distance },
        { activity: 'tracker', distance },
      ],
      ...(rhr === undefined ? {} : { restingHeartRate: rhr }),
    },
  };
}

// ------------------------------------------------------------- daily types

const dateFilter = (member: string, start: string, end: string) =>
  `${member}.date >= "${start}" AND ${member}.date < "${addDays(end, 1)}"`;

/** A daily data type's payloads by date (the first point of a date wins: newest first). */
async function dailyPoints(calls: GoogleHealthCalls, dataType: string, start: string, end: string) {
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

async function restingHeartRates(calls: GoogleHealthCalls, start: string, end: string) {
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

async function heartSeries(calls: GoogleHealthCalls, r: FitbitResource) {
  const rhr = await restingHeartRates(calls, r.start!, r.end!);
  return { 'activities-heart': datesFrom(r.start!, r.end!).map((d) => heartDay(d, rhr.get(d))) };
}

async function spo2(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [...(await dailyPoints(calls, 'daily-oxygen-saturation', r.start!, r.end!))].sort()) {
    const avg = num(p.averagePercentage);
    if (avg !== null) out.push({ dateTime: d, value: { avg: round(avg, 3) } });
  }
  return out;
}

async function cardioscore(calls: GoogleHealthCalls, r: FitbitResource) {
  const cardioScore: Json[] = [];
  for (const [d, p] of [...(await dailyPoints(calls, 'daily-vo2-max', r.start!, r.end!))].sort()) {
    const v = num(p.vo2Max);
    if (v !== null) cardioScore.push({ dateTime: d, value: { vo2Max: String(round(v, 1)) } });
  }
  return { cardioScore };
}

async function hrv(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [
    ...(await dailyPoints(calls, 'daily-heart-rate-variability', r.start!, r.end!)),
  ].sort()) {
    const daily = num(p.averageHeartRateVariabilityMilliseconds);
    const deep = num(p.deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds);
    if (daily === null && deep === null) continue;
    out.push({
      dateTime: d,
      value: {
        ...(daily === null ? {} : { dailyRmssd: round(daily, 3) }),
        ...(deep === null ? {} : { deepRmssd: round(deep, 3) }),
      },
    });
  }
  return { hrv: out };
}

async function breathingRate(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [...(await dailyPoints(calls, 'daily-respiratory-rate', r.start!, r.end!))].sort()) {
    const v = num(p.breathsPerMinute);
    if (v !== null) out.push({ dateTime: d, value: { breathingRate: round(v, 3) } });
  }
  return { br: out };
}

/**
 * `/temp/skin/date/…`: the night's skin temperature relative to the
 * personal baseline (legacy `nightlyRelative`), from Google's absolute
 * nightly and baseline values (§6 row 18).
 */
async function skinTemperature(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [
    ...(await dailyPoints(calls, 'daily-sleep-temperature-derivations', r.start!, r.end!)),
  ].sort()) {
    const nightly = num(p.nightlyTemperatureCelsius);
    const baseline = num(p.baselineTemperatureCelsius);
    if (nightly !== null && baseline !== null)
      out.push({
        dateTime: d,
        value: { nightlyRelative: round(nightly - baseline, 2) },
        logType: 'dedicated_temp_sensor',
      });
  }
  return { tempSkin: out };
}

// ------------------------------------------------------------------- sleep

const STAGE: Record<string, string> = {
  LIGHT: 'light',
  DEEP: 'deep',
  REM: 'rem',
  ASLEEP: 'asleep',
  RESTLESS: 'restless',
};
const INFO_CODE: Record<string, number> = {
  SUCCEEDED: 0,
  REJECTED_COVERAGE: 1,
  REJECTED_NAP: 2,
  REJECTED_SERVER: 3,
  TIMEOUT: 3,
  PROCESSING_INTERNAL_ERROR: 3,
};

/** An instant with its offset → the legacy local time 'YYYY-MM-DDTHH:mm:ss.000'. */
function localOf(instant: unknown, offset: unknown): string | null {
  const t = Date.parse(String(instant));
  const s = durationSeconds(offset);
  if (!Number.isFinite(t) || s === null) return null;
  return `${new Date(t + s * 1000).toISOString().slice(0, 19)}.000`;
}

function legacySleep(p: DataPoint): Json | null {
  const s = obj(p.sleep);
  const i = obj(s.interval);
  const end = civilText(i.civilEndTime as CivilDateTime | undefined) ?? localOf(i.endTime, i.endUtcOffset);
  const start =
    civilText(i.civilStartTime as CivilDateTime | undefined) ?? localOf(i.startTime, i.startUtcOffset);
  if (!start || !end) return null;
  const summary = obj(s.summary);
  const meta = obj(s.metadata);
  const classic = s.type === 'CLASSIC';
  const level = (t: unknown) =>
    t === 'AWAKE' ? (classic ? 'awake' : 'wake') : (STAGE[String(t)] ?? String(t).toLowerCase());
  const minutesAsleep = num(summary.minutesAsleep) ?? 0;
  const timeInBed = num(summary.minutesInSleepPeriod) ?? 0;
  const stages = Array.isArray(s.stages) ? (s.stages as Json[]) : [];
  const short = Array.isArray(s.shortAwakenings) ? (s.shortAwakenings as Json[]) : [];
  const segment = (x: Json) => ({
    dateTime: localOf(x.startTime, x.startUtcOffset ?? i.startUtcOffset),
    level: level(x.type),
    seconds: Math.round((Date.parse(String(x.endTime)) - Date.parse(String(x.startTime))) / 1000),
  });
  const stagesSummary = Array.isArray(summary.stagesSummary) ? (summary.stagesSummary as Json[]) : [];
  const name = typeof p.name === 'string' ? p.name.split('/').pop()! : '';
  const started = Date.parse(String(i.startTime));
  return {
    dateOfSleep: end.slice(0, 10),
    logId: /^\d+$/.test(name) ? Number(name) : name || started,
    logType: p.dataSource?.recordingMethod === 'MANUAL' ? 'manual' : 'auto_detected',
    type: classic ? 'classic' : 'stages',
    isMainSleep: meta.mainSleep === true,
    infoCode: INFO_CODE[String(meta.stagesStatus ?? 'SUCCEEDED')] ?? 3,
    startTime: `${start}.000`,
    endTime: `${end}.000`,
    duration: Date.parse(String(i.endTime)) - started,
    timeInBed,
    minutesAsleep,
    minutesAwake: num(summary.minutesAwake) ?? 0,
    minutesToFallAsleep: num(summary.minutesToFallAsleep) ?? 0,
    minutesAfterWakeup: num(summary.minutesAfterWakeUp) ?? 0,
    // Not in the Google API: computed as clients do (§3.10).
    efficiency: timeInBed > 0 ? Math.round((minutesAsleep / timeInBed) * 100) : 0,
    levels: {
      data: stages.map(segment),
      shortData: short.map(segment),
      summary: Object.fromEntries(
        stagesSummary.map((x) => [level(x.type), { count: num(x.count) ?? 0, minutes: num(x.minutes) ?? 0 }]),
      ),
    },
  };
}

async function sleepRange(calls: GoogleHealthCalls, r: FitbitResource) {
  // Attributed to the date the sleep ended (legacy dateOfSleep): filter on the civil end, up to the day after (§3.10).
  const points = await calls.list(
    'sleep',
    `sleep.interval.civil_end_time >= "${r.start}" AND sleep.interval.civil_end_time < "${addDays(r.end!, 1)}"`,
    25,
  );
  const sleep = points
    .map(legacySleep)
    .filter(
      (s): s is Json => s !== null && String(s.dateOfSleep) >= r.start! && String(s.dateOfSleep) <= r.end!,
    );
  // No main-sleep flag (an early API version): the longest sleep of each date is the main one (§3.10).
  if (!points.some((p) => typeof obj(obj(p.sleep).metadata).mainSleep === 'boolean'))
    for (const date of new Set(sleep.map((s) => String(s.dateOfSleep))))
      sleep
        .filter((s) => s.dateOfSleep === date)
        .sort((a, b) => Number(b.duration) - Number(a.duration))[0]!.isMainSleep = true;
  sleep.sort((a, b) => String(a.startTime).localeCompare(String(b.startTime)));
  return {
    sleep,
    summary: {
      totalMinutesAsleep: sleep.reduce((n, s) => n + Number(s.minutesAsleep), 0),
      totalSleepRecords: sleep.length,
      totalTimeInBed: sleep.reduce((n, s) => n + Number(s.timeInBed), 0),
    },
  };
}

// -------------------------------------------------------------------- body

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

async function bodyLog(calls: GoogleHealthCalls, kind: string, r: FitbitResource) {
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

async function bodySeries(calls: GoogleHealthCalls, kind: 'weight' | 'fat' | 'bmi', r: FitbitResource) {
  const last = new Map<string, Weighing>();
  for (const w of await weighings(calls, r.start!, r.end!)) last.set(w.date, w);
  return {
    [`body-${kind}`]: datesFrom(r.start!, r.end!).map((d) => {
      const w = last.get(d);
      const v = !w ? 0 : kind === 'weight' ? w.kg : kind === 'fat' ? (w.fat ?? 0) : (w.bmi ?? 0);
      return { dateTime: d, value: String(v) };
    }),
  };
}

// ------------------------------------------------------------------- foods

async function foodsSeries(calls: GoogleHealthCalls, kind: 'caloriesIn' | 'water', r: FitbitResource) {
  const values =
    kind === 'caloriesIn'
      ? await dailyValues(calls, 'nutrition-log', r.start!, r.end!, (p) => num(obj(p.energy).kcalSum))
      : await dailyValues(calls, 'hydration-log', r.start!, r.end!, (p) =>
          num(obj(p.amountConsumed).millilitersSum),
        );
  return {
    [`foods-log-${kind}`]: datesFrom(r.start!, r.end!).map((d) => ({
      dateTime: d,
      value: String(Math.round(values.get(d) ?? 0)),
    })),
  };
}

// ---------------------------------------------------------------- intraday

const DETAIL_SECONDS: Record<string, number> = { '1min': 60, '5min': 300, '15min': 900 };
const INTRADAY_TYPE: Record<string, { type: string; value: (p: Json) => number | null; places: number }> = {
  steps: { type: 'steps', value: (p) => num(p.countSum), places: 0 },
  distance: { type: 'distance', value: (p) => (num(p.millimetersSum) ?? 0) / 1e6, places: 6 },
  floors: { type: 'floors', value: (p) => num(p.countSum), places: 0 },
  elevation: { type: 'altitude', value: (p) => (num(p.gainMillimetersSum) ?? 0) / 1000, places: 3 },
  calories: { type: 'total-calories', value: (p) => num(p.kcalSum), places: 2 },
};

/** The local day as physical instants [start, end) in the zone (1380 or 1500 minutes on DST days). */
function dayRange(zone: string, date: string) {
  return { start: localMidnight(zone, date), end: localMidnight(zone, addDays(date, 1)) };
}

/** The optional HH:mm–HH:mm window of an intraday path (both ends included, as legacy Fitbit). */
function timeWindow(path: string): ((time: string) => boolean) | null {
  const m = /\/time\/(\d{2}:\d{2})\/(\d{2}:\d{2})\.json$/.exec(path);
  if (!m) return null;
  const [from, to] = [`${m[1]}:00`, `${m[2]}:59`];
  return (t) => t >= from && t <= to;
}

async function activityIntraday(calls: GoogleHealthCalls, path: string, r: FitbitResource) {
  const m = /^\/activities\/(\w+)\/date\/[\d-]+\/1d\/(\w+)/.exec(path)!;
  const resource = m[1]!;
  const spec = INTRADAY_TYPE[resource]!;
  const seconds = DETAIL_SECONDS[m[2]!]!;
  const { zone } = await userZone(calls);
  const { start, end } = dayRange(zone, r.start!);
  const points = await calls.rollUp(
    spec.type,
    new Date(start).toISOString(),
    new Date(end).toISOString(),
    seconds,
  );
  const key = camel(spec.type);
  const byStart = new Map<number, number>();
  for (const p of points) {
    if (p[key] === undefined) continue;
    const v = spec.value(obj(p[key]));
    if (v !== null) byStart.set(Date.parse(String(p.startTime)), v);
  }
  // Every window of the day, 0 where nothing was recorded (legacy lists every minute); a wall-clock
  // time repeated when clocks go back is listed once, with both windows' sum.
  const byTime = new Map<string, number>();
  for (let t = start; t < end; t += seconds * 1000) {
    const time = wallClock(zone, t).slice(11, 19);
    byTime.set(time, (byTime.get(time) ?? 0) + (byStart.get(t) ?? 0));
  }
  const inWindow = timeWindow(path);
  const dataset = [...byTime]
    .sort(([a], [b]) => a.localeCompare(b))
    .filter(([time]) => !inWindow || inWindow(time))
    .map(([time, v]) => ({ time, value: round(v, spec.places) }));
  const total = [...byTime.values()].reduce((a, b) => a + b, 0);
  const dayPlaces = resource === 'calories' ? 0 : spec.places;
  return {
    [`activities-${resource}`]: [{ dateTime: r.start, value: String(round(total, dayPlaces)) }],
    [`activities-${resource}-intraday`]: {
      dataset,
      datasetInterval: seconds / 60,
      datasetType: 'minute',
    },
  };
}

async function heartIntraday(calls: GoogleHealthCalls, path: string, r: FitbitResource) {
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

// ---------------------------------------------------------------- dispatch

/** The legacy answer body of an allow-listed tracker path (`r` = the contract's parse of `path`). */
export async function legacyAnswer(
  calls: GoogleHealthCalls,
  path: string,
  r: FitbitResource,
): Promise<unknown> {
  // Skin temperature is matched by its path: its allow-list kind comes with the sync of those metrics.
  if (/^\/temp\/skin\/date\//.test(path)) return skinTemperature(calls, r);
  switch (r.kind) {
    case 'activity-series':
      return activitySeries(calls, path, r);
    case 'activity-day':
      return activityDay(calls, r.start!);
    case 'activity-intraday':
      return activityIntraday(calls, path, r);
    case 'heart-series':
      return heartSeries(calls, r);
    case 'heart-intraday':
      return heartIntraday(calls, path, r);
    case 'sleep-range':
      return sleepRange(calls, r);
    case 'body-series':
      return bodySeries(calls, /^\/body\/(\w+)\//.exec(path)![1] as 'weight' | 'fat' | 'bmi', r);
    case 'body-log':
      return bodyLog(calls, /^\/body\/log\/(\w+)\//.exec(path)![1]!, r);
    case 'foods-series':
      return foodsSeries(calls, /^\/foods\/log\/(\w+)\//.exec(path)![1] as 'caloriesIn' | 'water', r);
    case 'spo2':
      return spo2(calls, r);
    case 'cardioscore':
      return cardioscore(calls, r);
    case 'hrv':
      return hrv(calls, r);
    case 'br':
      return breathingRate(calls, r);
    default:
      // The paginated lists (activity log, sleep list) and a day's food log: not mapped yet.
      throw new UnsupportedResource(`${path} is not available through the Google Health API`);
  }
}
