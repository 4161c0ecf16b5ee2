/*
 * Dexcom's answer as normalized series (decision 030): one point per record
 * of a window — `egv` (mg/dL) from egvs, `calibrations` (mg/dL), `events`
 * (each in its own unit: grams, units or minutes, named in `detail`) — at
 * its systemTime (the instant), with the local date, time and offset of its
 * displayTime (what the participant's phone or receiver showed; no zone:
 * `timeZone` null). A record whose systemTime or displayTime (with offset)
 * cannot be read is left out. `value` null: a record without a number (an
 * EGV the sensor could not compute, an event whose value is not a number).
 *
 * `detail`: the record id (the point's identity across windows, see
 * joinSeries), and for an EGV its trend arrow and rate (the sync stores them
 * as `egv_trend`) and its systemTime and displayTime as sent; for a calibration its unit;
 * for an event its type, subtype, status and unit (`text`: Dexcom's value
 * string).
 */
import type { Series, SeriesPoint } from '@trialwear/contract';
import { parseOffset } from '@trialwear/zone';
import type { DataQuery, ProviderAnswer, SeriesSet } from '../types.js';

export type DexcomRecord = Record<string, unknown> & { systemTime?: string; displayTime?: string };

/** The windowed resources' metric and unit (the catalog's; events have none of their own). */
export const DEXCOM_SERIES = {
  egvs: { metric: 'egv', unit: 'mg/dL' },
  calibrations: { metric: 'calibrations', unit: 'mg/dL' },
  events: { metric: 'events', unit: '' },
} as const;

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** The instant and local date, time and offset of a record; null when its times cannot be read. */
function when(r: DexcomRecord): Omit<SeriesPoint, 'value'> | null {
  const t = new Date(r.systemTime ?? '').getTime();
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?([+-]\d{2}:?\d{2})$/.exec(r.displayTime ?? '');
  const offset = m ? parseOffset(m[3]!) : null;
  if (Number.isNaN(t) || !m || offset === null) return null;
  return { at: new Date(t).toISOString(), date: m[1]!, time: m[2]!, offsetMinutes: offset };
}

/** A record's number, text and detail, by resource. */
const POINT: Record<
  keyof typeof DEXCOM_SERIES,
  (r: DexcomRecord) => Pick<SeriesPoint, 'value' | 'text' | 'detail'>
> = {
  egvs: (r) => ({
    value: typeof r.value === 'number' ? r.value : null,
    detail: {
      recordId: r.recordId ?? null,
      trend: r.trend ?? null,
      trendRate: typeof r.trendRate === 'number' ? r.trendRate : null,
      // The texts as sent (the page's CSV writes them as Dexcom did).
      systemTime: r.systemTime,
      displayTime: r.displayTime,
    },
  }),
  calibrations: (r) => ({
    value: typeof r.value === 'number' ? r.value : null,
    detail: { recordId: r.recordId ?? null, unit: str(r.unit) },
  }),
  events: (r) => {
    const n = typeof r.value === 'string' && r.value.trim() !== '' ? Number(r.value) : Number.NaN;
    const text = str(r.value);
    return {
      value: Number.isFinite(n) ? n : null,
      ...(text === null ? {} : { text }),
      detail: {
        recordId: r.recordId ?? null,
        eventType: str(r.eventType),
        eventSubType: str(r.eventSubType),
        eventStatus: str(r.eventStatus),
        unit: str(r.unit),
      },
    };
  },
};

/** The reader's toSeries: a window of egvs, calibrations or events as its one series, oldest first; devices and dataRange: none. */
export function dexcomSeries(query: DataQuery, answer: ProviderAnswer, _timeZone: string | null): SeriesSet {
  const resource = query.resource as keyof typeof DEXCOM_SERIES;
  if (!Object.hasOwn(DEXCOM_SERIES, resource)) return { series: [] };
  const body = answer.body as { records?: unknown } | null;
  const records = (Array.isArray(body?.records) ? body.records : []) as DexcomRecord[];
  const points = records
    .flatMap((r): SeriesPoint[] => {
      const base = when(r);
      return base ? [{ ...base, ...POINT[resource](r) }] : [];
    })
    // Oldest first; records of one instant keep Dexcom's order.
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const series: Series = {
    ...DEXCOM_SERIES[resource],
    timeZone: null,
    points,
    source: { provider: 'dexcom', requests: [answer.request] },
  };
  return { series: [series] };
}

/** The newest systemTime of a window's records (the sync's cursor), or null. */
export function newestSystemTime(answer: ProviderAnswer): number | null {
  const body = answer.body as { records?: unknown } | null;
  const records = (Array.isArray(body?.records) ? body.records : []) as DexcomRecord[];
  return records.reduce<number | null>((n, r) => {
    const t = Date.parse(r.systemTime ?? '');
    return Number.isNaN(t) ? n : Math.max(n ?? t, t);
  }, null);
}
