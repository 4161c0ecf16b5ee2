/*
 * The framing of the export's binary COPY (`COPY (SELECT <BINARY_COLUMNS> …)
 * TO STDOUT (FORMAT binary)`), shared by the CSV writer (binary-copy-csv.ts)
 * and the Parquet writer (binary-copy-columns.ts): each gets every row's
 * fields where the socket put them, as start and length per field, in
 * `row(buf)`.
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

import { shiftDateField, shiftDatesInPlace, shiftInstantField } from './date-shift.js';

/** The SELECT list of the export's binary COPY, in the order the parsers read it. */
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
export const FIELDS = BINARY_COLUMNS.length;
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const COPY_DATA = 0x64;

// Big-endian integers read by hand: Buffer's readers check their bounds on every call, and the
// parser has checked the row's length already.
export const int32 = (b: Buffer, at: number) =>
  (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
export const int16 = (b: Buffer, at: number) => (((b[at]! << 8) | b[at + 1]!) << 16) >> 16;
export const uint32 = (b: Buffer, at: number) => int32(b, at) >>> 0;
/** An int64 as a number: exact for |n| < 2^52 (times of day; instants of 1715–2285), the caller's check. */
export const int64 = (b: Buffer, at: number) => int32(b, at) * 4_294_967_296 + uint32(b, at + 4);

export abstract class BinaryCopyRows {
  /** Rows read so far. */
  rows = 0;
  /** Days every date and instant of the rows moves by (a de-identified export, date-shift.ts); 0: none. */
  protected shiftDays = 0;
  private state: 'header' | 'rows' | 'done' = 'header';
  /** The current row's fields: where each starts in the buffer given to row(), and its length (-1: NULL). */
  protected readonly starts = new Int32Array(FIELDS);
  protected readonly lengths = new Int32Array(FIELDS);
  /** A CopyData message cut by the end of the bytes written so far. */
  private messageCarry: Buffer | null = null;
  /** The start of a row cut by the end of its CopyData message. */
  private payloadCarry: Buffer | null = null;

  /** One whole row, its fields at `starts`/`lengths` in `buf`. */
  protected abstract row(buf: Buffer): void;

  /**
   * Takes the next bytes of the COPY's CopyData messages (type, length,
   * payload: lean-copy-to.ts passes them on as the socket gave them) and
   * hands each whole row to row().
   */
  protected feed(incoming: Buffer): void {
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
        return;
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
  }

  /** Checks that the COPY ended whole: its trailer read, nothing left over. */
  protected checkEnded(): void {
    if (this.state !== 'done' || this.messageCarry !== null || this.payloadCarry !== null)
      throw new Error('export: the COPY ended mid-row');
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

  /** The row's local date, instant and the dates in its value_json moved by shiftDays, in place. */
  private shiftRow(buf: Buffer): void {
    const s = this.starts;
    const l = this.lengths;
    if (l[1] === 4) shiftDateField(buf, s[1]!, this.shiftDays);
    if (l[4] === 8) shiftInstantField(buf, s[4]!, this.shiftDays);
    if (l[6]! > 0) shiftDatesInPlace(buf, s[6]!, l[6]!, this.shiftDays);
  }

  /** Hands on the whole rows in buf[from, end); returns where the first incomplete row starts. */
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
      if (this.shiftDays !== 0) this.shiftRow(buf);
      this.row(buf);
      this.rows += 1;
      at = p;
    }
    return at;
  }
}
