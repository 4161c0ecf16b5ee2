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
 * Input: the COPY's CopyData messages (type 'd', int32 length, payload), as
 * lean-copy-to.ts passes them on in framed mode; a message cut by a chunk's
 * end waits for the next chunk. Their payloads, joined, are the binary COPY
 * format (PostgreSQL docs, "COPY: Binary Format"): an 11-byte signature,
 * int32 flags, int32 header-extension length and that many bytes; then per
 * row an int16 field count and per field an int32 length (-1 for NULL) and
 * the bytes; an int16 -1 ends it. PostgreSQL sends one row per message;
 * a row across messages is read right all the same.
 */
import { DateBytes, OffsetBytes, putBytes, putCsvText, putFloat8, putTime } from './csv-bytes.js';

/** The SELECT list of the export's binary COPY, in the order this parser reads it. */
export const BINARY_COLUMNS = [
  'r.metric_key',
  'r.local_date',
  'r.local_time',
  'r.utc_offset_minutes',
  'r.measured_at',
  'r.value',
  'r.value_json::text',
  'r.participant_device_id',
  'r.provider',
] as const;
const FIELDS = BINARY_COLUMNS.length;
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const EMPTY = Buffer.alloc(0);
const COPY_DATA = 0x64;
/** CSV bytes per chunk handed on: each chunk costs a trip through yazl's streams and zlib's thread pool. */
export const CHUNK_BYTES = 512 * 1024;
const US_PER_DAY = 86_400_000_000;
const COMMA = 0x2c;
const LF = 0x0a;

/** What is the same for every row of one participant's COPY, as CSV fields. */
export interface RowConstants {
  /** The participant code. */
  code: string;
  /** Unit per metric key. */
  unitOf: ReadonlyMap<string, string>;
  /** Device name and provider per participant_device_id of the participant's links. */
  deviceOf: ReadonlyMap<number, { name: string; provider: string }>;
}

// Big-endian integers read by hand: Buffer's readers check their bounds on every call, and the
// parser has checked the row's length already.
const int32 = (b: Buffer, at: number) => (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
const int16 = (b: Buffer, at: number) => (((b[at]! << 8) | b[at + 1]!) << 16) >> 16;
const uint32 = (b: Buffer, at: number) => int32(b, at) >>> 0;
/** An int64 as a number: exact for |n| < 2^52 (times of day; instants of 1715–2285), the caller's check. */
const int64 = (b: Buffer, at: number) => int32(b, at) * 4_294_967_296 + uint32(b, at + 4);
const US_PER_DAY_BIG = 86_400_000_000n;

export class BinaryCopyCsv {
  /** Rows written so far. */
  rows = 0;
  private state: 'header' | 'rows' | 'done' = 'header';
  private readonly starts = new Int32Array(FIELDS);
  private readonly lengths = new Int32Array(FIELDS);
  private readonly localDate = new DateBytes();
  private readonly utcDate = new DateBytes();
  /** `<code>,` */
  private readonly prefix: Buffer;
  /** `,<unit>,` per metric key. */
  private readonly unitOf: Map<string, Buffer>;
  private readonly deviceOf: Map<number, { name: Buffer; provider: Buffer }>;
  private readonly noDevice = { name: EMPTY, provider: EMPTY };
  /** The longest constant part of a line, for the room a row needs. */
  private readonly constantBytes: number;
  private metricBytes: Buffer = EMPTY;
  private unitBytes: Buffer = Buffer.from(',,');
  private readonly offset = new OffsetBytes();
  /** The chunk being filled, its length, and the chunks filled since the last write() returned. */
  private out: Buffer = EMPTY;
  private o = 0;
  private ready: Buffer[] = [];
  /** A CopyData message cut by the end of the bytes written so far. */
  private messageCarry: Buffer | null = null;
  /** The start of a row cut by the end of its CopyData message. */
  private payloadCarry: Buffer | null = null;

  constructor(constants: RowConstants) {
    this.prefix = Buffer.from(`${constants.code},`);
    this.unitOf = new Map([...constants.unitOf].map(([key, unit]) => [key, Buffer.from(`,${unit},`)]));
    this.deviceOf = new Map(
      [...constants.deviceOf].map(([id, d]) => [
        id,
        { name: Buffer.from(d.name), provider: Buffer.from(d.provider) },
      ]),
    );
    this.constantBytes =
      this.prefix.length +
      Math.max(2, ...[...this.unitOf.values()].map((b) => b.length)) +
      Math.max(0, ...[...this.deviceOf.values()].map((d) => d.name.length + d.provider.length));
  }

  /**
   * Takes the next bytes of the COPY's CopyData messages (type, length,
   * payload: lean-copy-to.ts passes them on as the socket
   * gave them) and returns the chunks of CSV it has filled, each about
   * CHUNK_BYTES.
   */
  write(incoming: Buffer): Buffer[] {
    let at = 0;
    if (this.messageCarry !== null) {
      // A message cut by the last chunk's end, completed from the start of this one.
      let carry = this.messageCarry;
      this.messageCarry = null;
      if (carry.length < 5) {
        at = Math.min(5 - carry.length, incoming.length);
        carry = Buffer.concat([carry, incoming.subarray(0, at)]);
      }
      const need = carry.length < 5 ? Number.POSITIVE_INFINITY : 1 + int32(carry, 1) - carry.length;
      if (incoming.length - at < need) {
        this.messageCarry = Buffer.concat([carry, incoming.subarray(at)]);
        return this.takeReady();
      }
      const message = Buffer.concat([carry, incoming.subarray(at, at + need)]);
      at += need;
      this.message(message, 0, message.length);
    }
    const end = incoming.length;
    while (end - at >= 5) {
      if (incoming[at] !== COPY_DATA) throw new Error('export: not a CopyData message');
      const next = at + 1 + int32(incoming, at + 1);
      if (next > end) break;
      this.message(incoming, at, next);
      at = next;
    }
    if (at < end) this.messageCarry = incoming.subarray(at);
    return this.takeReady();
  }

  /**
   * Checks that the COPY ended whole (its trailer read, nothing left over)
   * and returns the last chunk of CSV (empty when there was no row).
   */
  end(): Buffer {
    if (this.state !== 'done' || this.messageCarry !== null || this.payloadCarry !== null)
      throw new Error('export: the COPY ended mid-row');
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

  /** One whole CopyData message at buf[start, end). */
  private message(buf: Buffer, start: number, end: number): void {
    if (buf[start] !== COPY_DATA) throw new Error('export: not a CopyData message');
    let b = buf;
    let from = start + 5;
    let to = end;
    if (this.payloadCarry !== null) {
      // PostgreSQL sends a row per message; a row across messages is still read right.
      b = Buffer.concat([this.payloadCarry, buf.subarray(from, to)]);
      this.payloadCarry = null;
      from = 0;
      to = b.length;
    }
    const at = this.parse(b, from, to);
    if (at < to) {
      if (this.state === 'done') throw new Error('export: bytes after the end of the COPY');
      this.payloadCarry = Buffer.from(b.subarray(at, to));
    }
  }

  /** Writes the lines of the whole rows in buf[from, end); returns where the first incomplete row starts. */
  private parse(buf: Buffer, from: number, end: number): number {
    let at = from;
    if (this.state === 'header') {
      if (end - at >= 11 && !buf.subarray(at, at + 11).equals(SIGNATURE))
        throw new Error('export: not a binary COPY');
      if (end - at < 19 || end - at < 19 + int32(buf, at + 15)) return at;
      at += 19 + int32(buf, at + 15);
      this.state = 'rows';
    }
    const starts = this.starts;
    const lengths = this.lengths;
    while (this.state === 'rows' && at + 2 <= end) {
      const count = int16(buf, at);
      if (count === -1) {
        this.state = 'done';
        return at + 2;
      }
      if (count !== FIELDS) throw new Error(`export: a COPY row of ${count} fields, not ${FIELDS}`);
      let p = at + 2;
      for (let f = 0; f < FIELDS; f++) {
        if (p + 4 > end) return at;
        const length = int32(buf, p);
        p += 4;
        starts[f] = p;
        lengths[f] = length;
        if (length > 0) p += length;
      }
      if (p > end) return at;
      this.line(buf);
      this.rows += 1;
      at = p;
    }
    return at;
  }

  /** `<code>,<metric>,<date>,<time>,<offset>,<instant>,<value>,<unit>,<json>,<device>,<source>\n` */
  private line(buf: Buffer): void {
    const s = this.starts;
    const l = this.lengths;
    const jsonLength = l[6]! > 0 ? l[6]! : 0;
    const providerLength = l[8]! > 0 ? l[8]! : 0;
    // Room: the constants, the metric, dates and times with fractions, a float's text,
    // and text fields that may double their quotes.
    const need = this.constantBytes + l[0]! + 2 * (jsonLength + providerLength) + 128;
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
      this.unitBytes = this.unitOf.get(this.metricBytes.toString('utf8')) ?? Buffer.from(',,');
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
