/*
 * The cases of the Google Health reader's series tests: zones with the days
 * around their DST changes (and one east of UTC on a half-hour offset), and
 * every allow-listed tracker path kind the Google Health API serves.
 */
import { FITBIT_ACTIVITY_RESOURCES } from '@trialwear/contract';

export const ZONE_CASES = [
  { timeZone: 'Europe/London', days: ['2026-03-29', '2026-10-25'] },
  { timeZone: 'America/New_York', days: ['2026-11-01', '2026-03-08'] },
  { timeZone: 'Australia/Sydney', days: ['2026-04-05', '2026-10-04'] },
  { timeZone: 'Asia/Kolkata', days: ['2026-06-15'] },
] as const;

/** Every path kind for a day `d` and a range `s`..`e` around it. */
export function readerPaths(d: string, s: string, e: string): string[] {
  return [
    ...FITBIT_ACTIVITY_RESOURCES.map((r) => `/activities/${r}/date/${s}/${e}.json`),
    `/activities/tracker/steps/date/${s}/${e}.json`,
    `/activities/tracker/minutesSedentary/date/${s}/${e}.json`,
    `/activities/date/${d}.json`,
    ...['steps', 'distance', 'floors', 'elevation', 'calories'].flatMap((r) =>
      ['1min', '15min'].map((detail) => `/activities/${r}/date/${d}/1d/${detail}.json`),
    ),
    `/activities/steps/date/${d}/1d/5min.json`,
    `/activities/steps/date/${d}/1d/1min/time/00:30/02:30.json`,
    `/activities/heart/date/${s}/${e}.json`,
    ...['1sec', '1min', '5min', '15min'].map((detail) => `/activities/heart/date/${d}/1d/${detail}.json`),
    `/activities/heart/date/${d}/1d/1min/time/00:45/03:15.json`,
    `/sleep/date/${s}/${e}.json`,
    ...['weight', 'fat', 'bmi'].map((k) => `/body/${k}/date/${s}/${e}.json`),
    `/body/weight/date/${d}/1w.json`,
    ...['weight', 'fat'].map((k) => `/body/log/${k}/date/${s}/${e}.json`),
    ...['caloriesIn', 'water'].map((k) => `/foods/log/${k}/date/${s}/${e}.json`),
    ...['spo2', 'cardioscore', 'hrv', 'br', 'temp/skin'].map((k) => `/${k}/date/${s}/${e}.json`),
  ];
}

/** The paths that read activity levels (the list's intervals when Google refuses their roll-up, §7.6). */
export const activityLevelPaths = (d: string, s: string, e: string) => [
  ...['minutesSedentary', 'minutesLightlyActive', 'minutesFairlyActive', 'minutesVeryActive'].map(
    (r) => `/activities/${r}/date/${s}/${e}.json`,
  ),
  `/activities/date/${d}.json`,
];

/** The digest label of the activity-level cases read without roll-ups. */
export const NO_LEVEL_ROLLUPS = 'America/New_York, no activity-level roll-ups';
