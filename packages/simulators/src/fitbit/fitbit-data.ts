/*
 * Deterministic synthetic Fitbit data per simulated user: the same user id
 * always gives the same devices and profile. One user in eight has a tracker
 * with a low battery, so the portal's battery tiers can be seen.
 */
import { createHash } from 'node:crypto';
import { offsetMinutesAt, wallClockMs } from '@trialwear/zone';
import { batteryOverride, syncStoppedAt } from './fitbit-device-state.js';

function seeded(userId: string, salt: string): number {
  return createHash('sha256').update(`${userId}:${salt}`).digest().readUInt32BE(0);
}

/** Fitbit's local time format: the user's wall-clock time, no offset, milliseconds (providers.md §1.4). */
export function fitbitLocal(d: Date, tz: string): string {
  return wallClockMs(tz, d.getTime());
}

const batteryBucket = (level: number) =>
  level > 60 ? 'High' : level >= 25 ? 'Medium' : level >= 5 ? 'Low' : 'Empty';

/**
 * Real IANA zones with their DST rules: US and EU zones change on different
 * Sundays, Sydney goes the other way, Tokyo never changes.
 */
export const TIMEZONES = [
  'America/New_York',
  'Europe/Berlin',
  'America/Los_Angeles',
  'Europe/London',
  'Australia/Sydney',
  'Asia/Tokyo',
] as const;

export function fitbitUserTimezone(userId: string): { tz: (typeof TIMEZONES)[number] } {
  return { tz: TIMEZONES[seeded(userId, 'tz') % TIMEZONES.length]! };
}

/**
 * The last sync before `now` on a per-user schedule, so repeated reads agree (15 min to 3 h apart).
 * Exported for the Google Health simulator, which reports the same sync as a UTC instant.
 */
export function lastSync(userId: string, salt: string, now: Date): Date {
  const period = (15 + (seeded(userId, `${salt}:p`) % 165)) * 60_000;
  const phase = seeded(userId, `${salt}:o`) % period;
  return new Date(now.getTime() - ((((now.getTime() - phase) % period) + period) % period));
}

/**
 * The tracker's last sync at `now`: the per-user schedule, or, once the
 * control API stopped the syncing at an instant that has passed, that
 * instant (frozen there).
 */
export function fitbitTrackerLastSync(userId: string, now: Date): Date {
  const stop = syncStoppedAt(userId);
  if (stop !== undefined && stop <= now.getTime()) return new Date(stop);
  return lastSync(userId, 'tracker', now);
}

export function fitbitDevices(userId: string, now: Date) {
  const { tz } = fitbitUserTimezone(userId);
  const lowBattery = seeded(userId, 'low') % 8 === 0;
  const trackerLevel =
    batteryOverride(userId) ??
    (lowBattery ? 4 + (seeded(userId, 'lvl') % 18) : 30 + (seeded(userId, 'lvl') % 70));
  const devices = [
    {
      battery: batteryBucket(trackerLevel),
      batteryLevel: trackerLevel,
      deviceVersion: ['Charge 6', 'Inspire 3', 'Sense 2', 'Versa 4'][seeded(userId, 'model') % 4]!,
      features: [],
      id: String(2_700_000_000 + (seeded(userId, 'tid') % 99_999_999)),
      lastSyncTime: fitbitLocal(fitbitTrackerLastSync(userId, now), tz),
      mac: createHash('md5').update(`${userId}:mac`).digest('hex').slice(0, 12).toUpperCase(),
      type: 'TRACKER' as 'TRACKER' | 'SCALE',
    },
  ];
  if (seeded(userId, 'scale') % 2 === 0) {
    const level = 40 + (seeded(userId, 'slvl') % 60);
    devices.push({
      battery: batteryBucket(level),
      batteryLevel: level,
      deviceVersion: 'Aria Air',
      features: [],
      id: String(2_790_000_000 + (seeded(userId, 'sid') % 9_999_999)),
      lastSyncTime: fitbitLocal(lastSync(userId, 'scale', now), tz),
      mac: createHash('md5').update(`${userId}:smac`).digest('hex').slice(0, 12).toUpperCase(),
      type: 'SCALE' as const,
    });
  }
  return devices;
}

/** The profile at `now`: offsetFromUTCMillis is the zone's offset at that instant (it changes with DST). */
export function fitbitProfile(userId: string, now: Date) {
  const { tz } = fitbitUserTimezone(userId);
  return {
    user: {
      encodedId: userId,
      displayName: `Participant ${userId}`,
      fullName: `Participant ${userId}`,
      gender: ['FEMALE', 'MALE', 'NA'][seeded(userId, 'g') % 3],
      timezone: tz,
      offsetFromUTCMillis: offsetMinutesAt(tz, now.getTime()) * 60_000,
      locale: 'en_US',
      memberSince: '2023-01-10',
      averageDailySteps: 5000 + (seeded(userId, 'steps') % 6000),
      distanceUnit: 'METRIC',
      weightUnit: 'METRIC',
      heightUnit: 'METRIC',
      startDayOfWeek: 'MONDAY',
    },
  };
}

/** A Fitbit-style user id (6 upper-case letters and digits) derived from a seed. */
export function fitbitUserId(seed: string): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = createHash('sha256').update(`user:${seed}`).digest();
  return Array.from(bytes.subarray(0, 6), (b) => alphabet[b % alphabet.length]).join('');
}
