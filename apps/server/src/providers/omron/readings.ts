/*
 * Omron measurements (providers.md §2.4) in the portal's shape: local time,
 * the instant, the offset and the values in Omron's units (mmHg, bpm, kg).
 * `since` is a local date for the staff, while Omron compares it with the
 * UTC instant: the server asks from the day before and keeps readings whose
 * local date is on or after `since`, so no reading near midnight is lost or
 * wrongly kept, whatever the participant's offset.
 */

import {
  type BloodPressureReading,
  DATA_MESSAGES,
  type OmronQuery,
  SCALE_FORM_MESSAGES,
  type Series,
  seriesOf,
  type WeightReading,
} from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { type DataQuery, type ProviderAnswer, type RawQuery, RawQueryRefused } from '../types.js';
import { OMRON_SERIES, type OmronDetail } from './series.js';

export interface OmronMeasurement {
  id?: number;
  dateTime: string;
  dateTimeLocal: string;
  dateTimeUtcOffset: string;
  systolic?: number;
  diastolic?: number;
  pulse?: number | null;
  weight?: number;
  bmi?: number | null;
  bodyFat?: number | null;
}

export interface OmronPage {
  status: number;
  result?: {
    truncated?: boolean;
    bloodPressure?: OmronMeasurement[];
    weight?: OmronMeasurement[];
  };
}

/**
 * Omron's paging (providers.md §2.4) of one answer read from `since`: its
 * newest reading's instant (the cursor) and the `since` of the next page
 * (null: the last page, or a page that would ask the same again).
 */
export function omronPaging(answer: ProviderAnswer, category: OmronQuery['category'], since: string) {
  const body = answer.body as OmronPage | null;
  const list = body?.result?.[category] ?? [];
  const last = list[list.length - 1];
  const next = !body?.result?.truncated || !last || last.dateTime === since ? null : last.dateTime;
  return { last: last?.dateTime ?? null, next };
}

/**
 * The data page's thin adapter: the readings of a category in Omron's shape
 * again, from the series of each page (omronSeries): every reading is one
 * point, in the same place, in each of its category's series.
 */
export function measurementsOf(
  pages: ReadonlyArray<readonly Series[]>,
  category: OmronQuery['category'],
): OmronMeasurement[] {
  const kind = category === 'bloodPressure' ? OMRON_SERIES.bloodpressure : OMRON_SERIES.weight;
  return pages.flatMap((page) => {
    const columns = kind.fields.map(([metric, field]) => ({
      field,
      points: seriesOf(page, metric)?.points ?? [],
    }));
    return (columns[0]?.points ?? []).map((p, i) => {
      const d = p.detail as unknown as OmronDetail;
      const m: OmronMeasurement = {
        ...(d.id !== undefined ? { id: d.id } : {}),
        dateTime: d.dateTime,
        dateTimeLocal: d.dateTimeLocal,
        dateTimeUtcOffset: d.dateTimeUtcOffset,
      };
      for (const c of columns) {
        const v = c.points[i]?.value;
        if (typeof v === 'number') m[c.field] = v;
      }
      return m;
    });
  });
}

/** Omron's `type` for a category. */
export const omronType = (c: OmronQuery['category']) => (c === 'bloodPressure' ? 'bloodpressure' : 'weight');

/** The `since` sent to Omron: the day before the local date (offsets reach ±14 h). */
export const omronSince = (localSince: string) => addDays(localSince, -1);

export const toBloodPressure = (m: OmronMeasurement): BloodPressureReading => ({
  dateTimeLocal: m.dateTimeLocal,
  dateTime: m.dateTime,
  utcOffset: m.dateTimeUtcOffset,
  systolic: m.systolic ?? 0,
  diastolic: m.diastolic ?? 0,
  pulse: m.pulse ?? null,
});

export const toWeight = (m: OmronMeasurement): WeightReading => ({
  dateTimeLocal: m.dateTimeLocal,
  dateTime: m.dateTime,
  utcOffset: m.dateTimeUtcOffset,
  weight: m.weight ?? 0,
  bmi: m.bmi ?? null,
  bodyFat: m.bodyFat ?? null,
});

/** Readings on or after the local date, de-duplicated by id, in the order and limit asked (0 = all). */
export function selectReadings(
  readings: readonly OmronMeasurement[],
  q: Pick<OmronQuery, 'since' | 'sortOrder' | 'limit'>,
): OmronMeasurement[] {
  const seen = new Set<string>();
  const kept = readings.filter((r) => {
    const key = r.id !== undefined ? String(r.id) : r.dateTime;
    if (seen.has(key) || r.dateTimeLocal.slice(0, 10) < q.since) return false;
    seen.add(key);
    return true;
  });
  kept.sort((a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime));
  if (q.sortOrder === 'desc') kept.reverse();
  return q.limit ? kept.slice(0, q.limit) : kept;
}

/** The raw page's query: one measurement read of a category since a local date (as the data page asks). */
export function omronRawQuery(q: RawQuery): DataQuery {
  if (q.resource !== 'bloodPressure' && q.resource !== 'weight')
    throw new RawQueryRefused(DATA_MESSAGES.unknownResource);
  if (!q.since || !/^\d{4}-\d{2}-\d{2}$/.test(q.since))
    throw new RawQueryRefused(SCALE_FORM_MESSAGES.startDate);
  return {
    resource: 'measurement',
    params: { since: q.since, type: omronType(q.resource), sortOrder: 'asc' },
  };
}
