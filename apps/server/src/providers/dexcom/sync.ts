/*
 * Dexcom (providers.md §3.3): estimated glucose values, calibrations and
 * events, each record type read in UTC windows of at most 30 days
 * (startDate/endDate, Dexcom's format read as UTC) from the newest stored
 * record of its metrics to now. The rows are the window's series
 * (series.ts): systemTime is the instant; displayTime (local wall-clock time
 * with its offset) gives the local date, time and offset. The trend is
 * stored as its own metric: the rate in mg/dL/min as the value, the arrow in
 * value_json. A calibration's value is its mg/dL; an event's value is
 * Dexcom's value string read as a number (grams, units or minutes, named in
 * value_json with the type, subtype, status and record id).
 */

import { DEXCOM_MAX_WINDOW_DAYS, type SeriesPoint } from '@trialwear/contract';
import type { ProviderSync, Reading, SyncIO } from '../sync-types.js';
import { ReadRefused } from '../sync-types.js';
import type { DataQuery, ProviderAnswer } from '../types.js';
import { dexcomSeries, newestSystemTime } from './series.js';
import { dexcomTime } from './windows.js';

const DAY = 86_400_000;
/** A cursor older than this (a long outage) is not walked back further. */
const MAX_CATCH_UP_DAYS = 90;

/** A point's row of `metricKey`: its instant, local date, time and offset. */
const row = (p: SeriesPoint, metricKey: string, value: number | null, valueJson: unknown): Reading => ({
  metricKey,
  measuredAt: new Date(p.at),
  localDate: p.date,
  localTime: p.time,
  utcOffsetMinutes: p.offsetMinutes,
  value,
  valueJson,
});

/** One record type: the resource read, the metrics it serves, how a point of its series becomes readings. */
interface RecordGroup {
  resource: 'egvs' | 'calibrations' | 'events';
  metrics: readonly string[];
  readings: (p: SeriesPoint, wanted: ReadonlySet<string>) => Reading[];
}

const GROUPS: RecordGroup[] = [
  {
    resource: 'egvs',
    metrics: ['egv', 'egv_trend'],
    readings(p, wanted) {
      const d = p.detail ?? {};
      const out: Reading[] = [];
      if (wanted.has('egv') && p.value !== null) out.push(row(p, 'egv', p.value, { recordId: d.recordId }));
      if (wanted.has('egv_trend') && (d.trend || typeof d.trendRate === 'number'))
        out.push(row(p, 'egv_trend', d.trendRate as number | null, { trend: d.trend }));
      return out;
    },
  },
  {
    resource: 'calibrations',
    metrics: ['calibrations'],
    readings(p) {
      const d = p.detail ?? {};
      return p.value === null
        ? []
        : [row(p, 'calibrations', p.value, { recordId: d.recordId, unit: d.unit })];
    },
  },
  {
    resource: 'events',
    metrics: ['events'],
    readings(p) {
      const d = p.detail ?? {};
      return [
        row(p, 'events', p.value, {
          recordId: d.recordId,
          eventType: d.eventType,
          eventSubType: d.eventSubType,
          eventStatus: d.eventStatus,
          value: p.text ?? null,
          unit: d.unit,
        }),
      ];
    },
  },
];

/** The rows of one window's answer, from its series (series.ts). */
function readings(g: RecordGroup, query: DataQuery, answer: ProviderAnswer, wanted: ReadonlySet<string>) {
  return dexcomSeries(query, answer, null).series.flatMap((s) =>
    (s.points ?? []).flatMap((p) => g.readings(p, wanted)),
  );
}

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
        const query: DataQuery = {
          resource: g.resource,
          params: { startDate: dexcomTime(from), endDate: dexcomTime(to) },
        };
        let answer: ProviderAnswer;
        try {
          answer = await io.read(query);
        } catch (err) {
          if (!(err instanceof ReadRefused)) throw err;
          io.fail({ metrics: [...wanted], error: err.message });
          break;
        }
        const rows = spreadSameInstant(readings(g, query, answer, wanted));
        const newest = newestSystemTime(answer);
        await io.store({
          metrics: [...wanted],
          readings: rows,
          cursor: newest === null ? {} : { at: new Date(newest) },
        });
      }
    }
  },
};
