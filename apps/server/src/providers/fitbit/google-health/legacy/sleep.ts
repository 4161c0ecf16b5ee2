/*
 * `/sleep/date/{start}/{end}`: Google's sleep sessions in the legacy
 * shape, attributed to the date the sleep ended (legacy dateOfSleep).
 */
import type { FitbitResource } from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { type CivilDateTime, civilText, num } from '../civil-time.js';
import type { DataPoint, GoogleHealthCalls } from '../google-http.js';
import { type Json, localOf, obj } from './google-payloads.js';

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

export async function sleepRange(calls: GoogleHealthCalls, r: FitbitResource) {
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
