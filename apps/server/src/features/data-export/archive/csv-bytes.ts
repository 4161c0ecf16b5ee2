/*
 * The export CSV's values written as bytes into an output Buffer (for
 * binary-copy-csv.ts): each writer takes the buffer and the offset to write
 * at and returns the offset after what it wrote; the caller has made room.
 * The text is csv-text.ts's (PostgreSQL's own text output), made from
 * tables and caches, since consecutive readings share their dates, offsets
 * and metric, and a day has 86,400 seconds: building it as JavaScript
 * strings cost twice the time (bench/export).
 */
import { offsetText, pgDate, pgFloat8 } from './csv-text.js';

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** 'HH:MM:SS' of every second of the day, 8 bytes each, made on first use. */
let secondsOfDay: Buffer | null = null;
function secondsTable(): Buffer {
  if (secondsOfDay) return secondsOfDay;
  const table = Buffer.alloc(86_400 * 8);
  for (let s = 0; s < 86_400; s++) {
    const h = Math.floor(s / 3600);
    const m = Math.floor(s / 60) % 60;
    const sec = s % 60;
    const at = s * 8;
    table[at] = 48 + Math.floor(h / 10);
    table[at + 1] = 48 + (h % 10);
    table[at + 2] = 0x3a;
    table[at + 3] = 48 + Math.floor(m / 10);
    table[at + 4] = 48 + (m % 10);
    table[at + 5] = 0x3a;
    table[at + 6] = 48 + Math.floor(sec / 10);
    table[at + 7] = 48 + (sec % 10);
  }
  secondsOfDay = table;
  return table;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The bytes of a date's text (days since 2000-01-01), remembering the last. */
export class DateBytes {
  private days = Number.NaN;
  private readonly bytes = Buffer.alloc(10);
  of(days: number): Buffer {
    if (days !== this.days) {
      this.bytes.write(pgDate(days), 0, 'latin1');
      this.days = days;
    }
    return this.bytes;
  }
}

/** The bytes of a UTC offset's text (±HH:MM), remembering the last (a participant's changes twice a year). */
export class OffsetBytes {
  private minutes = Number.NaN;
  private bytes = Buffer.alloc(0);
  of(minutes: number): Buffer {
    if (minutes !== this.minutes) {
      this.bytes = Buffer.from(offsetText(minutes), 'latin1');
      this.minutes = minutes;
    }
    return this.bytes;
  }
}

/** Copies short bytes (a loop beats a native copy at these sizes). */
export function putBytes(out: Buffer, src: Buffer, o: number): number {
  for (let i = 0; i < src.length; i++) out[o + i] = src[i]!;
  return o + src.length;
}

/** HH:MM:SS[.ffffff without trailing zeros] of µs since midnight (24:00:00 included). */
export function putTime(out: Buffer, us: number, o: number): number {
  const second = Math.floor(us / 1_000_000);
  let at = o;
  if (second >= 86_400) {
    at += out.write(
      `${Math.floor(second / 3600)}:${two(Math.floor(second / 60) % 60)}:${two(second % 60)}`,
      at,
      'latin1',
    );
  } else {
    const table = secondsTable();
    const t = second * 8;
    for (let i = 0; i < 8; i++) out[at + i] = table[t + i]!;
    at += 8;
  }
  let fraction = us - second * 1_000_000;
  if (fraction === 0) return at;
  let digits = 6;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  out[at] = 0x2e; // .
  for (let i = digits; i >= 1; i--) {
    out[at + i] = 48 + (fraction % 10);
    fraction = Math.floor(fraction / 10);
  }
  return at + digits + 1;
}

/** A float8 as pgFloat8 writes it; integers below 1e15 digit by digit, without a string. */
export function putFloat8(out: Buffer, v: number, o: number): number {
  if (!(Number.isInteger(v) && v < 1e15 && v > -1e15 && !Object.is(v, -0)))
    return o + out.write(pgFloat8(v), o, 'latin1');
  let at = o;
  let n = v;
  if (n < 0) {
    out[at++] = 0x2d; // -
    n = -n;
  }
  let digits = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits += 1;
  for (let i = digits - 1; i >= 0; i--) {
    out[at + i] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
  return at + digits;
}

/**
 * Text bytes (UTF-8) as a CSV field, as csvField writes it: quoted, quotes
 * doubled, when empty, `\.`, or holding a quote, comma or line break.
 */
export function putCsvText(out: Buffer, buf: Buffer, start: number, length: number, o: number): number {
  let quote = length === 0 || (length === 2 && buf[start] === 0x5c && buf[start + 1] === 0x2e);
  for (let i = start; !quote && i < start + length; i++) {
    const c = buf[i];
    quote = c === QUOTE || c === COMMA || c === LF || c === CR;
  }
  if (!quote) {
    if (length > 64) return o + buf.copy(out, o, start, start + length);
    for (let i = 0; i < length; i++) out[o + i] = buf[start + i]!;
    return o + length;
  }
  let at = o;
  out[at++] = QUOTE;
  for (let i = start; i < start + length; i++) {
    const c = buf[i]!;
    out[at++] = c;
    if (c === QUOTE) out[at++] = QUOTE;
  }
  out[at++] = QUOTE;
  return at;
}
