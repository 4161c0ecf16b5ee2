/*
 * Omron's answer as normalized series (decision 030): one point per reading
 * in each metric of its category — `systolic`, `diastolic` (mmHg), `pulse`
 * (bpm) for blood pressure; `weight` (kg), `bmi` (kg/m²), `body_fat` (%) for
 * weight — at the reading's instant, with the local date and time and the
 * offset the reading itself carries (no zone: `timeZone` null). A reading
 * without a number for a metric (a weighing without body fat) is a point
 * with value null; a reading whose instant or offset cannot be read is left
 * out. `detail` keeps Omron's id (when it sends one) and its own time texts,
 * so that the data page answers Omron's spec shape exactly.
 */
import type { Series, SeriesPoint } from '@trialwear/contract';
import { parseOffset } from '@trialwear/zone';
import type { DataQuery, ProviderAnswer, SeriesSet } from '../types.js';
import type { OmronMeasurement, OmronPage } from './readings.js';

type Field = 'systolic' | 'diastolic' | 'pulse' | 'weight' | 'bmi' | 'bodyFat';

/** Omron's `type` → its category in the answer and the metrics it gives (catalog key, Omron field, unit). */
export const OMRON_SERIES = {
  bloodpressure: {
    category: 'bloodPressure',
    fields: [
      ['systolic', 'systolic', 'mmHg'],
      ['diastolic', 'diastolic', 'mmHg'],
      ['pulse', 'pulse', 'bpm'],
    ],
  },
  weight: {
    category: 'weight',
    fields: [
      ['weight', 'weight', 'kg'],
      ['bmi', 'bmi', 'kg/m²'],
      ['body_fat', 'bodyFat', '%'],
    ],
  },
} as const satisfies Record<
  string,
  { category: 'bloodPressure' | 'weight'; fields: ReadonlyArray<readonly [string, Field, string]> }
>;

/** What a point's `detail` holds: Omron's id when it sent one, and its own time texts. */
export interface OmronDetail {
  id?: number;
  dateTime: string;
  dateTimeLocal: string;
  dateTimeUtcOffset: string;
}

/** A reading's instant and local date, time and offset; null when they cannot be read. */
function when(m: OmronMeasurement): Omit<SeriesPoint, 'value'> | null {
  if (typeof m.dateTime !== 'string' || typeof m.dateTimeLocal !== 'string') return null;
  const t = Date.parse(m.dateTime);
  const offset = typeof m.dateTimeUtcOffset === 'string' ? parseOffset(m.dateTimeUtcOffset) : null;
  if (Number.isNaN(t) || offset === null) return null;
  const detail: OmronDetail = {
    ...(m.id !== undefined ? { id: m.id } : {}),
    dateTime: m.dateTime,
    dateTimeLocal: m.dateTimeLocal,
    dateTimeUtcOffset: m.dateTimeUtcOffset,
  };
  return {
    at: new Date(t).toISOString(),
    date: m.dateTimeLocal.slice(0, 10),
    time: m.dateTimeLocal.slice(11, 19),
    offsetMinutes: offset,
    detail: detail as unknown as Record<string, unknown>,
  };
}

/** The reader's toSeries: a `measurement` answer as the series of its category, points oldest first. */
export function omronSeries(query: DataQuery, answer: ProviderAnswer, _timeZone: string | null): SeriesSet {
  const kind = OMRON_SERIES[query.params.type as keyof typeof OMRON_SERIES];
  if (query.resource !== 'measurement' || !kind) return { series: [] };
  const list = (answer.body as OmronPage | null)?.result?.[kind.category];
  const timed = (Array.isArray(list) ? list : [])
    .flatMap((m) => {
      const base = when(m);
      return base ? [{ m, base }] : [];
    })
    // Oldest first (Omron answers in the order asked); readings of one instant keep Omron's order.
    .sort((a, b) => Date.parse(a.base.at) - Date.parse(b.base.at));
  return {
    series: kind.fields.map(
      ([metric, field, unit]): Series => ({
        metric,
        unit,
        timeZone: null,
        points: timed.map(({ m, base }) => {
          const v = m[field];
          return { ...base, value: typeof v === 'number' ? v : null };
        }),
        source: { provider: 'omron', requests: [answer.request] },
      }),
    ),
  };
}
