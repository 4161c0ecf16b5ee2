/*
 * The legacy user's logged activity: an auto-detected walk on days with 20
 * or more very active minutes, the tracker on the wrist throughout (the activity log list, a day's summary, and
 * the Google Health simulator's exercise sessions read it).
 */
import { instantOfLocal, offsetMinutesAt, offsetText, wallClockMs } from '@trialwear/zone';
import { fitbitDay } from './fitbit-daily.js';
import { fitbitUserTimezone } from './fitbit-data.js';
import { fitbitWornMask } from './fitbit-wear.js';

/** The day's logged (auto-detected) walk, on days with 20 or more very active minutes. */
export function fitbitActivityLog(userId: string, day: string) {
  const d = fitbitDay(userId, day);
  if (d.minutesVeryActive < 20) return null;
  // Auto-detected from what the tracker recorded: the whole walk on the wrist.
  const on = fitbitWornMask(userId, day);
  const from = 17 * 60 + (d.minutesVeryActive % 60);
  for (let m = from; m < Math.min(1440, from + d.minutesVeryActive); m++) if (!on[m]) return null;
  const { tz } = fitbitUserTimezone(userId);
  const start = instantOfLocal(tz, `${day}T17:${String(d.minutesVeryActive % 60).padStart(2, '0')}`);
  const minutes = d.minutesVeryActive;
  const steps = Math.min(d.steps, minutes * 110);
  return {
    activityName: 'Walk',
    activityTypeId: 90013,
    activeDuration: minutes * 60_000,
    averageHeartRate: (d.restingHeartRate ?? 60) + 45,
    calories: minutes * 8,
    distance: Math.round(((steps * d.distanceKm) / Math.max(1, d.steps)) * 1000) / 1000,
    distanceUnit: 'Kilometer',
    duration: minutes * 60_000,
    logId: Number(`${day.replaceAll('-', '')}17${String(userId.charCodeAt(0)).padStart(3, '0')}`),
    logType: 'auto_detected',
    // Activity logs carry the local time WITH its offset (unlike the time series).
    startTime: `${wallClockMs(tz, start)}${offsetText(offsetMinutesAt(tz, start))}`,
    originalStartTime: `${wallClockMs(tz, start)}${offsetText(offsetMinutesAt(tz, start))}`,
    steps,
  };
}
