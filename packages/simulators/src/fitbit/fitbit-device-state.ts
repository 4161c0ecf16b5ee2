/*
 * What the control API changes about a simulated person's tracker, shared by
 * the legacy Fitbit and the Google Health simulators (one person, one
 * tracker, one account behind both APIs, like the generators themselves):
 *
 * - wear per local date (minutes on the wrist, replacing the day's natural
 *   wear pattern, fitbit-wear.ts);
 * - the tracker's battery level (devices / pairedDevices);
 * - a sync stop: the tracker's last sync freezes at an instant and nothing
 *   recorded from that instant on reaches the provider (both APIs answer as
 *   for a minute off the wrist), until the stop is lifted.
 *
 * Kept per process and keyed by the legacy Fitbit user id; a simulator's
 * `/_control/reset` clears it. The day memos that depend on it register
 * here and are cleared on every change.
 */

const wear = new Map<string, Map<string, number>>();
const battery = new Map<string, number>();
const syncStop = new Map<string, number>();
const listeners: Array<() => void> = [];

const changed = () => {
  for (const clear of listeners) clear();
};

/** A memo that must forget what it holds when the overrides change. */
export function onDeviceStateChange(clear: () => void) {
  listeners.push(clear);
}

/** The minutes on the wrist set for a local date, or undefined (the natural pattern). */
export const wearOverride = (userId: string, date: string): number | undefined => wear.get(userId)?.get(date);

/** Set the minutes on the wrist of local dates (0–1440). */
export function setFitbitWear(userId: string, dates: string[], minutesPerDay: number) {
  const m = wear.get(userId) ?? new Map<string, number>();
  for (const d of dates) m.set(d, Math.max(0, Math.min(1440, Math.round(minutesPerDay))));
  wear.set(userId, m);
  changed();
}

export const batteryOverride = (userId: string): number | undefined => battery.get(userId);

export function setFitbitBattery(userId: string, level: number) {
  battery.set(userId, Math.max(0, Math.min(100, Math.round(level))));
  changed();
}

/** The instant (ms) the tracker stopped syncing, or undefined. */
export const syncStoppedAt = (userId: string): number | undefined => syncStop.get(userId);

/** Stop the tracker's syncing at an instant (ms); null lifts the stop (the backlog arrives). */
export function stopFitbitSync(userId: string, at: number | null) {
  if (at === null) syncStop.delete(userId);
  else syncStop.set(userId, at);
  changed();
}

/** Every override gone: the generators' natural wear, battery and sync schedule. */
export function resetFitbitDeviceState() {
  wear.clear();
  battery.clear();
  syncStop.clear();
  changed();
}
