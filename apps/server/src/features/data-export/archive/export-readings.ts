/*
 * The export's rows as readings, for the standard formats (FHIR, Open
 * mHealth) that turn each reading into a document: the column groups of
 * the binary COPY (binary-copy-columns.ts) read back row by row, and the
 * pairing of a blood-pressure measurement's systolic and diastolic
 * readings (same device, same instant), which the standards hold as one.
 */
import type { ColumnGroup } from './binary-copy-columns.js';

/** One stored reading as the export's COPY gives it. */
export interface ExportReading {
  participantId: number;
  metric: string;
  /** The metric's name in the catalog. */
  metricName: string;
  /** Participant-local date and wall clock (HH:MM:SS[.ffffff]), the offset then (±HH:MM), the instant in µs. */
  localDate: string;
  localTime: string | null;
  offset: string | null;
  instantUs: number | bigint;
  value: number | null;
  valueJson: string | null;
  deviceId: number | null;
  /** The provider the reading came from (fitbit, google_health, omron, dexcom). */
  provider: string | null;
}

const two = (n: number) => String(n).padStart(2, '0');
const dateTexts = new Map<number, string>();
/** Days since 1970-01-01 as YYYY-MM-DD. */
function dateText(days: number): string {
  let t = dateTexts.get(days);
  if (t === undefined) {
    t = new Date(days * 86_400_000).toISOString().slice(0, 10);
    if (dateTexts.size < 100_000) dateTexts.set(days, t);
  }
  return t;
}
/** µs since midnight as HH:MM:SS[.f…] (PostgreSQL's text of a time). */
function timeText(us: number): string {
  const s = Math.floor(us / 1_000_000);
  const fraction = us % 1_000_000;
  const base = `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  return fraction === 0 ? base : `${base}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
}

/** The rows of a column group as readings of one participant. */
export function* readingsOf(
  g: ColumnGroup,
  participantId: number,
  names: ReadonlyMap<string, string>,
): Generator<ExportReading> {
  for (let i = 0; i < g.rows; i++) {
    const metric = g.metric_key[i]!;
    const time = g.local_time[i];
    yield {
      participantId,
      metric,
      metricName: names.get(metric) ?? metric,
      localDate: dateText(g.local_date[i]!),
      localTime: time === null || time === undefined ? null : timeText(time),
      offset: g.utc_offset[i] ?? null,
      instantUs: g.measured_at_utc[i]!,
      value: g.value[i] ?? null,
      valueJson: g.value_json[i] ?? null,
      deviceId: g.device_id[i] ?? null,
      provider: g.source[i] ?? null,
    };
  }
}

export interface BloodPressurePair {
  systolic: ExportReading | null;
  diastolic: ExportReading | null;
}

export const isBloodPressure = (metric: string) => metric === 'systolic' || metric === 'diastolic';

/** A participant's systolic and diastolic readings matched by device and instant. */
export class BloodPressurePairs {
  private readonly pending = new Map<string, BloodPressurePair>();

  /** The pair this reading completes, else null (it waits for its other half). */
  add(r: ExportReading): BloodPressurePair | null {
    const key = `${r.deviceId}:${r.instantUs}`;
    const pair = this.pending.get(key) ?? { systolic: null, diastolic: null };
    pair[r.metric as 'systolic' | 'diastolic'] = r;
    if (pair.systolic && pair.diastolic) {
      this.pending.delete(key);
      return pair;
    }
    this.pending.set(key, pair);
    return null;
  }

  /** The halves whose other half never came, by instant. */
  rest(): BloodPressurePair[] {
    const at = (p: BloodPressurePair) => BigInt((p.systolic ?? p.diastolic)!.instantUs);
    const halves = [...this.pending.values()].sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
    this.pending.clear();
    return halves;
  }
}

/**
 * A night's period from the provider's detail (sleep_duration and
 * sleep_stages keep the sleep's local start and end times): both with the
 * offset stored with the reading (of the night's date; on the night the
 * clocks change, the start's offset may differ by the change).
 */
export function sleepPeriod(r: ExportReading): { start: string; end: string } | null {
  if (!r.valueJson || r.offset === null) return null;
  let detail: Record<string, unknown>;
  try {
    detail = JSON.parse(r.valueJson) as Record<string, unknown>;
  } catch {
    return null;
  }
  const clock = (v: unknown) =>
    typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(v) ? v.slice(0, 19) : null;
  const start = clock(detail.startTime);
  const end = clock(detail.endTime);
  return start && end ? { start: `${start}${r.offset}`, end: `${end}${r.offset}` } : null;
}
