/*
 * The export's data rows: PostgreSQL's binary COPY of the readings
 * (`COPY (SELECT <BINARY_COLUMNS> …) TO STDOUT (FORMAT binary)`, one per
 * participant and metrics) turned into the CSV lines of the data file.
 *
 * PostgreSQL sends each value in its binary form (cheap for it: no text
 * output functions, no CSV quoting) and this class writes the line the
 * export promises, the text of every value made by csv-text.ts exactly as
 * PostgreSQL's text output would make it, plus what is constant per
 * participant: the code, the metric's unit, the device's name and provider.
 *
 * The lines are written as bytes (csv-bytes.ts) into chunks of
 * CHUNK_BYTES, and the input is read where the socket put it, CopyData
 * messages and all, not copied out of them first (bench/export).
 *
 * The COPY's framing (CopyData messages, the binary format's rows) is
 * binary-copy-rows.ts's.
 */
import { BinaryCopyRows, int16, int32, int64, uint32 } from './binary-copy-rows.js';
import { DateBytes, OffsetBytes, putBytes, putCsvText, putFloat8, putTime } from './csv-bytes.js';

export { BINARY_COLUMNS } from './binary-copy-rows.js';

const EMPTY = Buffer.alloc(0);
/** CSV bytes per chunk handed on: each chunk costs a trip through yazl's streams and zlib's thread pool. */
export const CHUNK_BYTES = 512 * 1024;
const US_PER_DAY = 86_400_000_000;
const COMMA = 0x2c;
const LF = 0x0a;

/** What is the same for every row of one participant's COPY, as CSV fields (or as text, for Parquet). */
export interface RowConstants {
  /** The participant code. */
  code: string;
  /** Unit per metric key. */
  unitOf: ReadonlyMap<string, string>;
  /** Device name and provider per participant_device_id of the participant's links. */
  deviceOf: ReadonlyMap<number, { name: string; provider: string }>;
  /** The pages' unit and conversion per metric key shown in another unit (DISPLAY_UNITS); others absent. */
  displayOf: ReadonlyMap<string, { unit: string; convert: (stored: number) => number }>;
  /** Days the participant's dates and instants move by (a de-identified export); absent: none. */
  shiftDays?: number;
}

const US_PER_DAY_BIG = 86_400_000_000n;

export class BinaryCopyCsv extends BinaryCopyRows {
  private readonly localDate = new DateBytes();
  private readonly utcDate = new DateBytes();
  /** `<code>,` */
  private readonly prefix: Buffer;
  /** `,<unit>,` per metric key. */
  private readonly unitOf: Map<string, Buffer>;
  private readonly deviceOf: Map<number, { name: Buffer; provider: Buffer }>;
  private readonly noDevice = { name: EMPTY, provider: EMPTY };
  /** `,<display unit>` and the conversion per metric key shown in another unit. */
  private readonly displayOf: Map<string, { unit: Buffer; convert: (stored: number) => number }>;
  private display: { unit: Buffer; convert: (stored: number) => number } | undefined;
  /** The longest constant part of a line, for the room a row needs. */
  private readonly constantBytes: number;
  private metricBytes: Buffer = EMPTY;
  private unitBytes: Buffer = Buffer.from(',,');
  private readonly offset = new OffsetBytes();
  /** The chunk being filled, its length, and the chunks filled since the last write() returned. */
  private out: Buffer = EMPTY;
  private o = 0;
  private ready: Buffer[] = [];

  constructor(constants: RowConstants) {
    super();
    this.shiftDays = constants.shiftDays ?? 0;
    this.prefix = Buffer.from(`${constants.code},`);
    this.unitOf = new Map([...constants.unitOf].map(([key, unit]) => [key, Buffer.from(`,${unit},`)]));
    this.deviceOf = new Map(
      [...constants.deviceOf].map(([id, d]) => [
        id,
        { name: Buffer.from(d.name), provider: Buffer.from(d.provider) },
      ]),
    );
    this.displayOf = new Map(
      [...constants.displayOf].map(([key, d]) => [key, { unit: Buffer.from(d.unit), convert: d.convert }]),
    );
    this.constantBytes =
      this.prefix.length +
      Math.max(0, ...[...this.displayOf.values()].map((d) => d.unit.length)) +
      Math.max(2, ...[...this.unitOf.values()].map((b) => b.length)) +
      Math.max(0, ...[...this.deviceOf.values()].map((d) => d.name.length + d.provider.length));
  }

  /**
   * Takes the next bytes of the COPY's CopyData messages and returns the
   * chunks of CSV it has filled, each about CHUNK_BYTES.
   */
  write(incoming: Buffer): Buffer[] {
    this.feed(incoming);
    return this.takeReady();
  }

  /**
   * Checks that the COPY ended whole (its trailer read, nothing left over)
   * and returns the last chunk of CSV (empty when there was no row).
   */
  end(): Buffer {
    this.checkEnded();
    const last = this.out.subarray(0, this.o);
    this.out = EMPTY;
    this.o = 0;
    return last;
  }

  private takeReady(): Buffer[] {
    const ready = this.ready;
    if (ready.length > 0) this.ready = [];
    return ready;
  }

  /**
   * `<code>,<metric>,<date>,<time>,<offset>,<instant>,<value>,<unit>,<json>,<device>,<source>,<display value>,<display unit>\n`
   * (the display fields empty for a metric the pages show in its stored unit).
   */
  protected row(buf: Buffer): void {
    const s = this.starts;
    const l = this.lengths;
    const jsonLength = l[6]! > 0 ? l[6]! : 0;
    const providerLength = l[8]! > 0 ? l[8]! : 0;
    // Room: the constants, the metric, dates and times with fractions, two floats' text,
    // and text fields that may double their quotes.
    const need = this.constantBytes + l[0]! + 2 * (jsonLength + providerLength) + 160;
    if (this.o + need > this.out.length) {
      if (this.o > 0) this.ready.push(this.out.subarray(0, this.o));
      this.out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, need));
      this.o = 0;
    }
    const out = this.out;
    let o = putBytes(out, this.prefix, this.o);

    // metric_key: the requested keys are plain names (checked), written as stored.
    const metricStart = s[0]!;
    const metricLength = l[0]!;
    if (!this.sameMetric(buf, metricStart, metricLength)) {
      this.metricBytes = Buffer.from(buf.subarray(metricStart, metricStart + metricLength));
      const key = this.metricBytes.toString('utf8');
      this.unitBytes = this.unitOf.get(key) ?? Buffer.from(',,');
      this.display = this.displayOf.get(key);
    }
    o = putBytes(out, this.metricBytes, o);
    out[o++] = COMMA;

    o = putBytes(out, this.localDate.of(int32(buf, s[1]!)), o);
    out[o++] = COMMA;
    if (l[2]! >= 0) o = putTime(out, int64(buf, s[2]!), o);
    out[o++] = COMMA;
    if (l[3]! >= 0) o = putBytes(out, this.offset.of(int16(buf, s[3]!)), o);
    out[o++] = COMMA;

    // The instant as its UTC day and µs into it; beyond 2^52 µs of 2000 in BigInt, exactly.
    const hi = int32(buf, s[4]!);
    let days: number;
    let us: number;
    if (hi > -1_048_576 && hi < 1_048_576) {
      const instant = int64(buf, s[4]!);
      days = Math.floor(instant / US_PER_DAY);
      us = instant - days * US_PER_DAY;
    } else {
      const instant = BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(uint32(buf, s[4]! + 4)));
      let d = instant / US_PER_DAY_BIG;
      if (instant % US_PER_DAY_BIG < 0n) d -= 1n;
      days = Number(d);
      us = Number(instant - d * US_PER_DAY_BIG);
    }
    o = putBytes(out, this.utcDate.of(days), o);
    out[o++] = 0x54; // T
    o = putTime(out, us, o);
    out[o++] = 0x5a; // Z
    out[o++] = COMMA;

    if (l[5]! >= 0) o = putFloat8(out, buf.readDoubleBE(s[5]!), o);
    o = putBytes(out, this.unitBytes, o);
    if (l[6]! >= 0) o = putCsvText(out, buf, s[6]!, l[6]!, o);
    out[o++] = COMMA;

    const device = l[7]! < 0 ? this.noDevice : (this.deviceOf.get(int32(buf, s[7]!)) ?? this.noDevice);
    o = putBytes(out, device.name, o);
    out[o++] = COMMA;
    if (l[8]! >= 0) o = putCsvText(out, buf, s[8]!, l[8]!, o);
    else o = putBytes(out, device.provider, o);
    out[o++] = COMMA;
    if (this.display !== undefined && l[5]! >= 0) {
      o = putFloat8(out, this.display.convert(buf.readDoubleBE(s[5]!)), o);
      out[o++] = COMMA;
      o = putBytes(out, this.display.unit, o);
    } else out[o++] = COMMA;
    out[o++] = LF;
    this.o = o;
  }

  private sameMetric(buf: Buffer, start: number, length: number): boolean {
    const m = this.metricBytes;
    if (m.length !== length || length === 0) return false;
    for (let i = 0; i < length; i++) if (m[i] !== buf[start + i]) return false;
    return true;
  }
}
