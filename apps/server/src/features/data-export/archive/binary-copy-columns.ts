/*
 * The export's data rows for Parquet (issue #24, decision 042): the same
 * binary COPY as the CSV's (binary-copy-rows.ts) read into column arrays of
 * at most `groupRows` rows, which parquet-entry.ts writes as one row group
 * each. Every value is the CSV's, typed:
 *
 *   participant_code, metric_key, unit, device, source   text (the CSV's, unquoted)
 *   local_date        days since 1970-01-01 (Parquet DATE)
 *   local_time        µs since midnight (Parquet TIME, micros, local)
 *   utc_offset        '±HH:MM', as in the CSV
 *   measured_at_utc   µs since 1970-01-01 UTC (Parquet TIMESTAMP, micros, UTC)
 *   value             the stored double
 *   value_json        the stored JSON's text (PostgreSQL's jsonb text, as in the CSV)
 *   display_value     the value as the pages show it (DISPLAY_UNITS), a double; null for other metrics
 *   display_unit      its unit (text); null for other metrics
 *
 * A NULL (an empty unquoted CSV field) is null. Strings constant per
 * participant, metric or device are one string object each, so a column of
 * them costs a reference per row and the dictionary encoding finds them at once.
 */

import type { RowConstants } from './binary-copy-csv.js';
import { BinaryCopyRows, int16, int32, int64, uint32 } from './binary-copy-rows.js';
import { offsetText } from './csv-text.js';

/** PostgreSQL's date and timestamp epoch (2000-01-01) from the Unix epoch, in days and in µs. */
const PG_EPOCH_DAYS = 10_957;
const PG_EPOCH_US = 946_684_800_000_000;
const PG_EPOCH_US_BIG = 946_684_800_000_000n;

export interface ColumnGroup {
  rows: number;
  participant_code: string[];
  metric_key: string[];
  local_date: number[];
  local_time: (number | null)[];
  utc_offset: (string | null)[];
  measured_at_utc: (number | bigint)[];
  value: (number | null)[];
  unit: (string | null)[];
  value_json: (string | null)[];
  device: (string | null)[];
  source: (string | null)[];
  display_value: (number | null)[];
  display_unit: (string | null)[];
  /** The reading's device link (not a data column: the FHIR export's Device reference). */
  device_id: (number | null)[];
}

const emptyGroup = (): ColumnGroup => ({
  rows: 0,
  participant_code: [],
  metric_key: [],
  local_date: [],
  local_time: [],
  utc_offset: [],
  measured_at_utc: [],
  value: [],
  unit: [],
  value_json: [],
  device: [],
  source: [],
  display_value: [],
  display_unit: [],
  device_id: [],
});

/** '' (the CSV's empty unquoted field) as null. */
const orNull = (s: string) => (s === '' ? null : s);

/**
 * Reads one participant's COPY after another (`next`) into groups of at most
 * `groupRows` rows; `take()` hands on the full ones, `rest()` the last.
 */
export class BinaryCopyColumns extends BinaryCopyRows {
  private group = emptyGroup();
  private full: ColumnGroup[] = [];
  private code = '';
  private unitOf = new Map<string, string | null>();
  private deviceOf = new Map<number, { name: string | null; provider: string | null }>();
  private readonly noDevice = { name: null, provider: null };
  private metric = '';
  private metricBytes = Buffer.alloc(0);
  private unit: string | null = null;
  private displayOf: RowConstants['displayOf'] = new Map();
  private display: { unit: string; convert: (stored: number) => number } | undefined;
  private provider = '';
  private providerBytes = Buffer.alloc(0);
  private offsetMinutes = Number.NaN;
  private offset = '';

  constructor(private readonly groupRows: number) {
    super();
  }

  /** Starts the next participant's COPY: a new parser state, the same open group. */
  static next(previous: BinaryCopyColumns | null, groupRows: number, constants: RowConstants) {
    const columns = new BinaryCopyColumns(groupRows);
    columns.shiftDays = constants.shiftDays ?? 0;
    if (previous) columns.group = previous.rest() ?? emptyGroup();
    columns.code = constants.code;
    columns.unitOf = new Map([...constants.unitOf].map(([k, u]) => [k, orNull(u)]));
    columns.displayOf = constants.displayOf;
    columns.deviceOf = new Map(
      [...constants.deviceOf].map(([id, d]) => [id, { name: orNull(d.name), provider: orNull(d.provider) }]),
    );
    return columns;
  }

  write(incoming: Buffer): void {
    this.feed(incoming);
  }

  /** The groups filled since the last call. */
  take(): ColumnGroup[] {
    const full = this.full;
    if (full.length > 0) this.full = [];
    return full;
  }

  /** Checks that the COPY ended whole. */
  end(): void {
    this.checkEnded();
  }

  /** The group being filled (null when empty); this parser adds no more to it. */
  rest(): ColumnGroup | null {
    const g = this.group;
    this.group = emptyGroup();
    return g.rows > 0 ? g : null;
  }

  protected row(buf: Buffer): void {
    const s = this.starts;
    const l = this.lengths;
    const g = this.group;
    g.participant_code.push(this.code);

    const metricStart = s[0]!;
    const metricLength = l[0]!;
    if (!this.same(this.metricBytes, buf, metricStart, metricLength)) {
      this.metricBytes = Buffer.from(buf.subarray(metricStart, metricStart + metricLength));
      this.metric = this.metricBytes.toString('utf8');
      this.unit = this.unitOf.get(this.metric) ?? null;
      this.display = this.displayOf.get(this.metric);
    }
    g.metric_key.push(this.metric);
    g.local_date.push(int32(buf, s[1]!) + PG_EPOCH_DAYS);
    // Times and instants as numbers (exact below 2^53 µs), not BigInt: a BigInt per value was
    // most of the writer's garbage, and hyparquet-writer takes either for INT64.
    g.local_time.push(l[2]! >= 0 ? int64(buf, s[2]!) : null);
    if (l[3]! >= 0) {
      const minutes = int16(buf, s[3]!);
      if (minutes !== this.offsetMinutes) {
        this.offsetMinutes = minutes;
        this.offset = offsetText(minutes);
      }
      g.utc_offset.push(this.offset);
    } else g.utc_offset.push(null);
    // Instants of 1715–2285 as numbers; beyond, exactly, as BigInt.
    const hi = int32(buf, s[4]!);
    if (hi > -1_048_576 && hi < 1_048_576) g.measured_at_utc.push(int64(buf, s[4]!) + PG_EPOCH_US);
    else
      g.measured_at_utc.push(
        BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(uint32(buf, s[4]! + 4))) + PG_EPOCH_US_BIG,
      );
    const value = l[5]! >= 0 ? buf.readDoubleBE(s[5]!) : null;
    g.value.push(value);
    g.unit.push(this.unit);
    g.value_json.push(l[6]! >= 0 ? buf.toString('utf8', s[6]!, s[6]! + l[6]!) : null);
    const deviceId = l[7]! < 0 ? null : int32(buf, s[7]!);
    const device = deviceId === null ? this.noDevice : (this.deviceOf.get(deviceId) ?? this.noDevice);
    g.device.push(device.name);
    g.device_id.push(deviceId);
    if (l[8]! >= 0) {
      const start = s[8]!;
      const length = l[8]!;
      if (!this.same(this.providerBytes, buf, start, length)) {
        this.providerBytes = Buffer.from(buf.subarray(start, start + length));
        this.provider = this.providerBytes.toString('utf8');
      }
      g.source.push(this.provider);
    } else g.source.push(device.provider);
    const shown = this.display !== undefined && value !== null;
    g.display_value.push(shown ? this.display!.convert(value) : null);
    g.display_unit.push(shown ? this.display!.unit : null);
    g.rows += 1;
    if (g.rows >= this.groupRows) {
      this.full.push(g);
      this.group = emptyGroup();
    }
  }

  private same(known: Buffer, buf: Buffer, start: number, length: number): boolean {
    if (known.length !== length || length === 0) return false;
    for (let i = 0; i < length; i++) if (known[i] !== buf[start + i]) return false;
    return true;
  }
}
