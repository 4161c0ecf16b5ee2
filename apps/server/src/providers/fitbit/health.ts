/*
 * Fitbit's study-health measure (issue #23 item 1), both APIs: wear minutes
 * per participant-local day = the minutes of that day with a heart-rate
 * sample in the provider's 1-minute intraday heart rate. A minute without a
 * sample is not worn (a day in a drawer, synced afterwards, is 0); a day
 * that begins after the tracker's last sync is no data (null), not 0.
 * Each check re-reads the last 3 complete local days and today (one read a
 * day), so a late upload is followed.
 */
import { seriesOf } from '@trialwear/contract';
import { addDays, instantOfLocal, isKnownZone, localDate, startOfLocalDay } from '@trialwear/zone';
import { HEALTH_COMPLETE_DAYS, type HealthDay, type ProviderHealth } from '../sync-types.js';

export const fitbitHealth: ProviderHealth = {
  // The trackers' newest lastSyncTime (wear is the tracker's; a scale syncs on its own), else any
  // device's: the user's local wall clock.
  lastSyncAt(entries, timeZone) {
    const tz = timeZone && isKnownZone(timeZone) ? timeZone : 'UTC';
    const trackers = entries.filter((e) => e.deviceType === 'TRACKER');
    const times = (trackers.length ? trackers : entries)
      .filter((e) => e.lastSyncTime && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(e.lastSyncTime))
      .map((e) => instantOfLocal(tz, e.lastSyncTime!.slice(0, 19)));
    return times.length ? new Date(Math.max(...times)) : null;
  },
  async days(io) {
    const tz = (await io.zone()) ?? 'UTC';
    const today = localDate(tz, io.now);
    const out: HealthDay[] = [];
    for (let i = HEALTH_COMPLETE_DAYS; i >= 0; i--) {
      const date = addDays(today, -i);
      if (!io.lastSyncAt || io.lastSyncAt.getTime() < startOfLocalDay(tz, date)) {
        out.push({ date, wearMinutes: null });
        continue;
      }
      const path = `/activities/heart/date/${date}/1d/1min.json`;
      const { series } = await io.series({ resource: 'tracker', params: { path } }, tz);
      // Distinct minutes by instant: the hour a fall-back day repeats counts twice, as it was lived.
      const minutes = new Set(
        (seriesOf(series, 'heart_rate_intraday')?.points ?? [])
          .filter((p) => p.value !== null && p.date === date)
          .map((p) => Math.floor(Date.parse(p.at) / 60_000)),
      );
      out.push({ date, wearMinutes: minutes.size });
    }
    return out;
  },
};
