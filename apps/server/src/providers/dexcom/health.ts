/*
 * Dexcom's study-health measure (issue #23 item 1): CGM active time per
 * participant-local day = the share of the day's 288 expected 5-minute EGVs
 * that arrived with a value, in percent (1 decimal). Days are the
 * participant's displayed dates (each EGV's displayTime); a day that begins
 * after the app's last upload is no data (null). One read of the last 3
 * complete local days and today.
 */
import { EGVS_PER_DAY, seriesOf } from '@trialwear/contract';
import { offsetDays } from '../offset-days.js';
import { HEALTH_COMPLETE_DAYS, type ProviderHealth } from '../sync-types.js';
import { dexcomTime } from './windows.js';

/** Dexcom's lastUploadDate: UTC (its systemTime format, with or without the Z). */
const utcInstant = (text: string) => Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);

export const dexcomHealth: ProviderHealth = {
  lastSyncAt(entries) {
    const times = entries.flatMap((e) => {
      const t = e.lastSyncTime ? utcInstant(e.lastSyncTime) : Number.NaN;
      return Number.isFinite(t) ? [t] : [];
    });
    return times.length ? new Date(Math.max(...times)) : null;
  },
  async days(io) {
    const now = io.now.getTime();
    // A day and a half more than the days asked for: local dates run up to 14 h from UTC's.
    const from = now - (HEALTH_COMPLETE_DAYS + 2) * 86_400_000;
    const query = { resource: 'egvs', params: { startDate: dexcomTime(from), endDate: dexcomTime(now) } };
    const points = seriesOf((await io.series(query, null)).series, 'egv')?.points ?? [];
    const { dates, startOf } = offsetDays(points, io.now, HEALTH_COMPLETE_DAYS + 1);
    return dates.map((date) => {
      if (!io.lastSyncAt || io.lastSyncAt.getTime() < startOf(date)) return { date, cgmActivePercent: null };
      const n = points.filter((p) => p.date === date && p.value !== null).length;
      return { date, cgmActivePercent: Math.round((Math.min(n, EGVS_PER_DAY) / EGVS_PER_DAY) * 1000) / 10 };
    });
  },
};
