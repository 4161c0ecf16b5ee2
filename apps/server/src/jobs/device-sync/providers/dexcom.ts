/*
 * Dexcom (providers.md §3.3): estimated glucose values in UTC windows of at
 * most 30 days (startDate/endDate, Dexcom's format read as UTC), from the
 * newest stored value's systemTime to now. systemTime is the instant;
 * displayTime (local wall-clock time with its offset) gives the local date,
 * time and offset. The trend is stored as its own metric: the rate in
 * mg/dL/min as the value, the arrow in value_json.
 */
import { DEXCOM_MAX_WINDOW_DAYS } from '@trialwear/contract';
import { dexcomTime } from '../../../features/device-data/dexcom-windows.js';
import type { ProviderSync, Reading, SyncIO } from '../types.js';
import { ReadRefused } from '../types.js';
import { parseOffset } from '../zone-time.js';

const DAY = 86_400_000;
/** A cursor older than this (a long outage) is not walked back further. */
const MAX_CATCH_UP_DAYS = 90;

interface Egv {
  recordId?: string;
  systemTime?: string;
  displayTime?: string;
  value?: number | null;
  trend?: string | null;
  trendRate?: number | null;
}

function readings(e: Egv, wanted: ReadonlySet<string>): Reading[] {
  const measuredAt = new Date(e.systemTime ?? '');
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?([+-]\d{2}:?\d{2})$/.exec(e.displayTime ?? '');
  const offset = m ? parseOffset(m[3]!) : null;
  if (Number.isNaN(measuredAt.getTime()) || !m || offset === null) return [];
  const base = { measuredAt, localDate: m[1]!, localTime: m[2]!, utcOffsetMinutes: offset };
  const out: Reading[] = [];
  if (wanted.has('egv') && typeof e.value === 'number')
    out.push({ ...base, metricKey: 'egv', value: e.value, valueJson: { recordId: e.recordId ?? null } });
  if (wanted.has('egv_trend') && (e.trend || typeof e.trendRate === 'number'))
    out.push({
      ...base,
      metricKey: 'egv_trend',
      value: typeof e.trendRate === 'number' ? e.trendRate : null,
      valueJson: { trend: e.trend ?? null },
    });
  return out;
}

export const dexcomSync: ProviderSync = {
  metrics: ['egv', 'egv_trend'],
  async run(io: SyncIO, metrics) {
    const wanted = new Set(['egv', 'egv_trend'].filter((k) => metrics.includes(k)));
    if (wanted.size === 0) return;
    const end = Math.floor(io.now.getTime() / 1000) * 1000;
    const first = end - io.backfillDays * DAY;
    const starts = [...wanted].map((k) => io.cursor(k).at?.getTime() ?? first);
    const start = Math.max(Math.min(...starts), end - (io.catchUpDays ?? MAX_CATCH_UP_DAYS) * DAY);
    for (let from = start; from < end; from += DEXCOM_MAX_WINDOW_DAYS * DAY) {
      const to = Math.min(end, from + DEXCOM_MAX_WINDOW_DAYS * DAY);
      let records: Egv[];
      try {
        const body = (
          await io.read({
            resource: 'egvs',
            params: { startDate: dexcomTime(from), endDate: dexcomTime(to) },
          })
        ).body as { records?: Egv[] } | null;
        records = Array.isArray(body?.records) ? body.records : [];
      } catch (err) {
        if (!(err instanceof ReadRefused)) throw err;
        io.fail({ metrics: [...wanted], error: err.message });
        return;
      }
      const rows = records.flatMap((e) => readings(e, wanted));
      const newest = rows.reduce<number | null>((n, r) => Math.max(n ?? 0, r.measuredAt.getTime()), null);
      await io.store({
        metrics: [...wanted],
        readings: rows,
        cursor: newest === null ? {} : { at: new Date(newest) },
      });
    }
  },
};
