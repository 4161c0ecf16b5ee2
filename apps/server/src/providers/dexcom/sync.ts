/*
 * Dexcom (providers.md §3.3): estimated glucose values, calibrations and
 * events, each record type read in UTC windows of at most 30 days
 * (startDate/endDate, Dexcom's format read as UTC) from the newest stored
 * record of its metrics to now. systemTime is the instant; displayTime
 * (local wall-clock time with its offset) gives the local date, time and
 * offset. The trend is stored as its own metric: the rate in mg/dL/min as
 * the value, the arrow in value_json. A calibration's value is its mg/dL; an
 * event's value is Dexcom's value string read as a number (grams, units or
 * minutes, named in value_json with the type, subtype, status and record id).
 */

import { DEXCOM_MAX_WINDOW_DAYS } from '@trialwear/contract';
import { parseOffset } from '@trialwear/zone';
import type { ProviderSync, Reading, SyncIO } from '../../jobs/device-sync/types.js';
import { ReadRefused } from '../../jobs/device-sync/types.js';
import { dexcomTime } from './windows.js';

const DAY = 86_400_000;
/** A cursor older than this (a long outage) is not walked back further. */
const MAX_CATCH_UP_DAYS = 90;

type DexcomRecord = Record<string, unknown> & { systemTime?: string; displayTime?: string };

/** The instant and local date, time and offset of a record; null when its times cannot be read. */
function when(r: DexcomRecord) {
  const measuredAt = new Date(r.systemTime ?? '');
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?([+-]\d{2}:?\d{2})$/.exec(r.displayTime ?? '');
  const offset = m ? parseOffset(m[3]!) : null;
  if (Number.isNaN(measuredAt.getTime()) || !m || offset === null) return null;
  return { measuredAt, localDate: m[1]!, localTime: m[2]!, utcOffsetMinutes: offset };
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** One record type: the resource read, the metrics it serves, how a record becomes readings. */
interface RecordGroup {
  resource: 'egvs' | 'calibrations' | 'events';
  metrics: readonly string[];
  readings: (r: DexcomRecord, wanted: ReadonlySet<string>) => Reading[];
}

const GROUPS: RecordGroup[] = [
  {
    resource: 'egvs',
    metrics: ['egv', 'egv_trend'],
    readings(e, wanted) {
      const base = when(e);
      if (!base) return [];
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
    },
  },
  {
    resource: 'calibrations',
    metrics: ['calibrations'],
    readings(c) {
      const base = when(c);
      if (!base || typeof c.value !== 'number') return [];
      return [
        {
          ...base,
          metricKey: 'calibrations',
          value: c.value,
          valueJson: { recordId: c.recordId ?? null, unit: str(c.unit) },
        },
      ];
    },
  },
  {
    resource: 'events',
    metrics: ['events'],
    readings(e) {
      const base = when(e);
      if (!base) return [];
      const n = typeof e.value === 'string' && e.value.trim() !== '' ? Number(e.value) : Number.NaN;
      return [
        {
          ...base,
          metricKey: 'events',
          value: Number.isFinite(n) ? n : null,
          valueJson: {
            recordId: e.recordId ?? null,
            eventType: str(e.eventType),
            eventSubType: str(e.eventSubType),
            eventStatus: str(e.eventStatus),
            value: str(e.value),
            unit: str(e.unit),
          },
        },
      ];
    },
  },
];

/**
 * Readings are keyed by (participant, metric, instant); two events logged at
 * the same second (carbs and insulin entered together) would be one row. The
 * second and later of a second, in recordId order, are moved on by 1 ms each.
 */
function spreadSameInstant(rows: Reading[]): Reading[] {
  const seen = new Map<string, number>();
  const id = (r: Reading) => String((r.valueJson as { recordId?: unknown } | null)?.recordId ?? '');
  return [...rows]
    .sort((a, b) => a.measuredAt.getTime() - b.measuredAt.getTime() || id(a).localeCompare(id(b)))
    .map((r) => {
      const key = `${r.metricKey}|${r.measuredAt.getTime()}`;
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      return n === 0 ? r : { ...r, measuredAt: new Date(r.measuredAt.getTime() + n) };
    });
}

export const dexcomSync: ProviderSync = {
  metrics: GROUPS.flatMap((g) => g.metrics),
  async run(io: SyncIO, metrics) {
    const end = Math.floor(io.now.getTime() / 1000) * 1000;
    const first = end - io.backfillDays * DAY;
    for (const g of GROUPS) {
      const wanted = new Set(g.metrics.filter((k) => metrics.includes(k)));
      if (wanted.size === 0) continue;
      const starts = [...wanted].map((k) => io.cursor(k).at?.getTime() ?? first);
      const start = Math.max(Math.min(...starts), end - (io.catchUpDays ?? MAX_CATCH_UP_DAYS) * DAY);
      for (let from = start; from < end; from += DEXCOM_MAX_WINDOW_DAYS * DAY) {
        const to = Math.min(end, from + DEXCOM_MAX_WINDOW_DAYS * DAY);
        let records: DexcomRecord[];
        try {
          const body = (
            await io.read({
              resource: g.resource,
              params: { startDate: dexcomTime(from), endDate: dexcomTime(to) },
            })
          ).body as { records?: DexcomRecord[] } | null;
          records = Array.isArray(body?.records) ? body.records : [];
        } catch (err) {
          if (!(err instanceof ReadRefused)) throw err;
          io.fail({ metrics: [...wanted], error: err.message });
          break;
        }
        const rows = spreadSameInstant(records.flatMap((r) => g.readings(r, wanted)));
        const newest = records.reduce<number | null>((n, r) => {
          const t = Date.parse(r.systemTime ?? '');
          return Number.isNaN(t) ? n : Math.max(n ?? t, t);
        }, null);
        await io.store({
          metrics: [...wanted],
          readings: rows,
          cursor: newest === null ? {} : { at: new Date(newest) },
        });
      }
    }
  },
};
