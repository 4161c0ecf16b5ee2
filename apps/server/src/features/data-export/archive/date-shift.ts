/*
 * De-identified exports (issue #25 item 5, decision 049): every date and
 * instant of a participant moves by the same whole number of days, 0–364,
 * derived from the trial's secret and the participant (HMAC-SHA256), so it
 * is the same in every export of the trial and differs between
 * participants; times of day, weekdays' order and intervals are kept.
 *
 * The shift is applied where the rows leave PostgreSQL (binary-copy-rows.ts):
 * the local date (int32 days) and the instant (int64 µs) of each row of the
 * binary COPY, and every YYYY-MM-DD inside its value_json text (sleep start
 * and end, stage intervals, Dexcom's system and display times), in place: a
 * date keeps its ten bytes, so the row's length does not change.
 */
import { createHmac } from 'node:crypto';

/** Shifts are 0 … SHIFT_DAYS - 1 days. */
export const SHIFT_DAYS = 365;
const US_PER_DAY = 86_400_000_000;

/** The participant's shift in days under the trial's secret. */
export function shiftDaysOf(trialKey: Buffer, participantId: number): number {
  const mac = createHmac('sha256', trialKey).update(`participant:${participantId}`).digest();
  return mac.readUInt32BE(0) % SHIFT_DAYS;
}

const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;
const digits = (buf: Buffer, at: number, n: number) => {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[at + i]!;
    if (b < 0x30 || b > 0x39) return -1;
    v = v * 10 + (b - 0x30);
  }
  return v;
};

/**
 * Every real calendar date written YYYY-MM-DD in buf[start, start + length)
 * (not part of a longer run of digits) moved by `days`, in place.
 */
export function shiftDatesInPlace(buf: Buffer, start: number, length: number, days: number): void {
  const end = start + length;
  for (let i = start; i + 10 <= end; i++) {
    if (buf[i + 4] !== 0x2d || buf[i + 7] !== 0x2d) continue;
    if (isDigit(buf[i - 1]) && i > start) continue;
    if (i + 10 < end && isDigit(buf[i + 10])) continue;
    const y = digits(buf, i, 4);
    const m = digits(buf, i + 5, 2);
    const d = digits(buf, i + 8, 2);
    if (y < 0 || m < 1 || m > 12 || d < 1 || d > 31) continue;
    const t = Date.UTC(y, m - 1, d);
    const check = new Date(t);
    if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) continue; // 2026-02-30
    const shifted = new Date(t + days * 86_400_000).toISOString();
    if (shifted.length !== 24) continue; // a year beyond 9999
    buf.write(shifted.slice(0, 10), i, 'latin1');
    i += 9;
  }
}

/** The same for a text (tests and small values). */
export function shiftDatesInText(text: string, days: number): string {
  const buf = Buffer.from(text, 'utf8');
  shiftDatesInPlace(buf, 0, buf.length, days);
  return buf.toString('utf8');
}

/** A binary COPY date field (int32 days since 2000-01-01) moved by `days`, in place. */
export function shiftDateField(buf: Buffer, at: number, days: number): void {
  buf.writeInt32BE(buf.readInt32BE(at) + days, at);
}

/** A binary COPY timestamptz field (int64 µs since 2000-01-01) moved by `days`, in place. */
export function shiftInstantField(buf: Buffer, at: number, days: number): void {
  buf.writeBigInt64BE(buf.readBigInt64BE(at) + BigInt(days * US_PER_DAY), at);
}
