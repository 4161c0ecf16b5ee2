/*
 * When the tracker is on the wrist, minute by minute of a user's local date
 * (wall-clock minutes 0–1439 in the legacy user's zone), deterministic from
 * the user id and the date (decision 032):
 *
 * - about one day in nine is "in a drawer": no minute worn; the tracker came
 *   off at bedtime the evening before and goes back on after waking up the
 *   morning after (those two nights are off the wrist);
 * - about one night in ten is off the wrist otherwise: from 15 minutes
 *   before bedtime to 30 minutes after getting up (the main sleep's window,
 *   the night belonging to its wake-up date like the sleep log);
 * - about one day in three has one hour to two hours off (shower,
 *   charging) between getting up (07:30 at the earliest) and bedtime,
 *   never over a night's sleep.
 *
 * The control API replaces a date's pattern by a number of minutes
 * (`wearOverride`: worn from 07:00 on, then before 07:00 backwards, over
 * the minutes that exist that day) and can stop the syncing at an instant
 * (`syncStoppedAt`): a minute recorded from then on never reached the
 * provider and reads like a minute off the wrist on both APIs.
 *
 * A minute is "worn" exactly when both APIs have a heart-rate sample for it
 * (legacy 1min/1sec datasets, Google heart-rate points); `fitbitWearMinutes`
 * is the tests' truth.
 */

import { createHash } from 'node:crypto';
import {
  addDays,
  instantOfLocal,
  localDate,
  localDayMinutes,
  localTimeExists,
  startOfLocalDay,
} from '@trialwear/zone';
import { fitbitUserTimezone } from './fitbit-data.js';
import { onDeviceStateChange, syncStoppedAt, wearOverride } from './fitbit-device-state.js';

/** A uniform number in [0, 1] from a seed. */
export const rnd = (seed: string) => createHash('sha256').update(seed).digest().readUInt32BE(0) / 0xffffffff;

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * The main sleep that ends on `date` (its wake-up date): the start in
 * minutes after the previous day's midnight (22:00–24:00), the minutes
 * asleep and awake. The same draws whether or not the night is worn.
 */
export function nightOf(userId: string, date: string) {
  const r = (k: string) => rnd(`${userId}:${date}:${k}`);
  const asleep = Math.round(330 + r('sleep') * 150);
  const startMin = 22 * 60 + Math.round(r('bed') * 120);
  const wake = Math.round(asleep * (0.05 + r('wake') * 0.1));
  return { startMin, asleep, wake, inBed: asleep + wake };
}

/** A day the tracker spends in a drawer (about one in nine). */
export const inDrawer = (userId: string, date: string) => rnd(`${userId}:${date}:worn`) <= 1 / 9;

/** The night before `date` (ending on it) is off the wrist. */
const nightOff = (userId: string, date: string) =>
  inDrawer(userId, date) || inDrawer(userId, addDays(date, -1)) || rnd(`${userId}:${date}:nightoff`) < 0.1;

const ALL_MINUTES = new Uint8Array(1440).fill(1);
const gaps = new Map<string, Uint8Array>();
/**
 * The wall-clock minutes (0–1439) that exist on the user's local date (1380
 * on the day clocks go forward): 1 = exists. Do not modify the answer.
 */
export function existingMinutes(userId: string, date: string): Uint8Array {
  const { tz } = fitbitUserTimezone(userId);
  const key = `${tz}:${date}`;
  const hit = gaps.get(key);
  if (hit) return hit;
  let out = ALL_MINUTES;
  if (localDayMinutes(tz, date) < 1440) {
    out = new Uint8Array(1440).fill(1);
    for (let m = 0; m < 1440; m++) if (!localTimeExists(tz, `${date}T${hhmm(m)}`)) out[m] = 0;
  }
  if (gaps.size > 20_000) gaps.clear();
  gaps.set(key, out);
  return out;
}

/** The natural pattern of a date: 1 = on the wrist. */
function naturalMask(userId: string, date: string): Uint8Array {
  const on = new Uint8Array(1440);
  if (inDrawer(userId, date)) return on;
  on.fill(1);
  const off = (from: number, to: number) => on.fill(0, Math.max(0, from), Math.min(1440, to));
  if (nightOff(userId, date)) {
    const n = nightOf(userId, date);
    off(n.startMin - 1440 - 15, n.startMin - 1440 + n.inBed + 30);
  }
  const tomorrow = addDays(date, 1);
  if (nightOff(userId, tomorrow)) off(nightOf(userId, tomorrow).startMin - 15, 1440);
  if (rnd(`${userId}:${date}:charge`) < 0.35) {
    // Between getting up (07:30 at the earliest) and going to bed: never over a night's sleep.
    const today = nightOf(userId, date);
    const len = 60 + Math.floor(rnd(`${userId}:${date}:chargeLen`) * 61);
    const earliest = Math.max(7 * 60 + 30, today.startMin - 1440 + today.inBed + 30);
    const latest = nightOf(userId, tomorrow).startMin - 15 - len;
    const start = earliest + Math.floor(rnd(`${userId}:${date}:chargeAt`) * Math.max(0, latest - earliest));
    off(start, start + len);
  }
  return on;
}

/** A date set to `minutes` by the control API: worn from 07:00 on, then before 07:00 backwards. */
function overrideMask(exists: Uint8Array, minutes: number): Uint8Array {
  const on = new Uint8Array(1440);
  let left = minutes;
  for (let i = 0; i < 1440 && left > 0; i++) {
    const m = i < 1020 ? 420 + i : 419 - (i - 1020);
    if (exists[m]) {
      on[m] = 1;
      left -= 1;
    }
  }
  return on;
}

const memo = new Map<string, Uint8Array>();
onDeviceStateChange(() => memo.clear());

/**
 * Per wall-clock minute of a local date, 1 when the tracker was on the
 * wrist and what it recorded reached the provider (a minute that does not
 * exist that day is 0). Do not modify the answer (memoized).
 */
export function fitbitWornMask(userId: string, date: string): Uint8Array {
  const key = `${userId}:${date}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const exists = existingMinutes(userId, date);
  const set = wearOverride(userId, date);
  const on = set === undefined ? naturalMask(userId, date) : overrideMask(exists, set);
  for (let m = 0; m < 1440; m++) if (!exists[m]) on[m] = 0;
  const stop = syncStoppedAt(userId);
  if (stop !== undefined) {
    const { tz } = fitbitUserTimezone(userId);
    if (stop <= startOfLocalDay(tz, date)) on.fill(0);
    else if (stop < startOfLocalDay(tz, addDays(date, 1)))
      for (let m = 0; m < 1440; m++) if (on[m] && instantOfLocal(tz, `${date}T${hhmm(m)}`) >= stop) on[m] = 0;
  }
  if (memo.size > 20_000) memo.clear();
  memo.set(key, on);
  return on;
}

/**
 * The truth of wear (issue 23 §1): the minutes of the user's local date that
 * have a heart-rate sample, on the legacy Fitbit API (1min and 1sec
 * datasets) and on the Google Health API (heart-rate points) alike, with the
 * control API's wear and sync stop applied. At most 1440 (1380 on the day
 * clocks go forward; the day they go back lists each wall-clock minute once,
 * so 1440 there too). A date the tracker has not synced reads 0 here: tell
 * it from a worn-nothing day by `fitbitTrackerLastSync`.
 */
export function fitbitWearMinutes(userId: string, date: string): number {
  let n = 0;
  for (const v of fitbitWornMask(userId, date)) n += v;
  return n;
}

/** The user's local date at an instant (the legacy zone). */
export const fitbitLocalDate = (userId: string, at: Date | number) =>
  localDate(fitbitUserTimezone(userId).tz, +at);
