/*
 * The export CSV's text of values from PostgreSQL's binary COPY, character
 * for character what PostgreSQL's own text output gives for them
 * (test/data-export/binary-copy-csv.int.test.ts); csv-bytes.ts writes them,
 * and the times of day and instants, as bytes:
 *
 *   date         days since 2000-01-01        → 2026-03-29        (DateStyle ISO)
 *   time         µs since midnight            → 02:00:00, 23:55:00.5 (fraction trimmed; csv-bytes)
 *   timestamptz  µs since 2000-01-01 UTC      → 2026-03-29T01:00:00Z, …T06:55:00.5Z (csv-bytes)
 *   smallint     UTC offset in minutes        → +01:00, -07:00, +05:45
 *   float8                                      → 7001.5, 1e-05, 1.5e+16 (shortest exact, extra_float_digits ≥ 1)
 *
 * Why in Node: PostgreSQL runs one export COPY on one core, and its text
 * output functions (and the expressions that shaped the offset and the
 * instant) were most of that core's time, while the Node process waited for
 * rows (bench/export). Formatting here moves that work beside the deflate.
 */

const MS_PER_DAY = 86_400_000;
/** 2000-01-01T00:00:00Z in Unix milliseconds: PostgreSQL's epoch for dates and timestamps. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
/** Days from 2000-01-01 of 0001-01-01 and of 9999-12-31: the years written as four digits. */
const dayOf = (year: number, month: number, day: number) => {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day); // Date.UTC would read year 1 as 1901
  return Math.round((d.getTime() - PG_EPOCH_MS) / MS_PER_DAY);
};
const FIRST_DAY = dayOf(1, 0, 1);
const LAST_DAY = dayOf(9999, 11, 31);

/** A CSV field as PostgreSQL's CSV writes it: quoted only when it has to be (an empty string is quoted; NULL is empty). */
export function csvField(v: string | null): string {
  if (v === null) return '';
  if (v === '' || /[",\r\n]/.test(v) || v === '\\.') return `"${v.replaceAll('"', '""')}"`;
  return v;
}

/** YYYY-MM-DD of a PostgreSQL date (days since 2000-01-01), years 1–9999. */
export function pgDate(days: number): string {
  if (days < FIRST_DAY || days > LAST_DAY)
    throw new RangeError(`export: date outside years 1–9999 (${days})`);
  const d = new Date(PG_EPOCH_MS + days * MS_PER_DAY);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${day < 10 ? '0' : ''}${day}`;
}

/** ±HH:MM of an offset in minutes. */
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

export function utcOffset(minutes: number): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(a / 60))}:${two(a % 60)}`;
}

/** '-14:00' … '+14:00' by quarter hour, indexed by minutes / 15 + 56. */
const QUARTER_HOURS = Array.from({ length: 113 }, (_, i) => utcOffset((i - 56) * 15));

export function offsetText(minutes: number): string {
  if (minutes % 15 === 0 && minutes >= -840 && minutes <= 840) return QUARTER_HOURS[minutes / 15 + 56]!;
  return utcOffset(minutes);
}

/**
 * float8 as PostgreSQL 12+ writes it with extra_float_digits ≥ 1: the
 * shortest text that reads back the same double (as JavaScript's), in
 * exponent form when the decimal exponent is below -4 or at least 15, the
 * exponent signed and of at least two digits; 'NaN', 'Infinity', '-0'.
 */
export function pgFloat8(v: number): string {
  if (Number.isInteger(v) && v < 1e15 && v > -1e15) return Object.is(v, -0) ? '-0' : String(v);
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  let e = v.toExponential(); // shortest digits, e.g. '1.5e+16', '9e-5'
  // JavaScript's shortest digits may lie exactly halfway to a neighbouring double (reading them back
  // rounds to v by ties-to-even); PostgreSQL's shortest output never uses such a halfway text and
  // writes more digits (-4.6162814338517504e+16, where JavaScript has -4.61628143385175e+16).
  let fractionDigits = e.includes('.') ? e.indexOf('e') - e.indexOf('.') - 1 : 0;
  while (onHalfway(v, e) && fractionDigits < 16) e = v.toExponential(++fractionDigits);
  const at = e.indexOf('e');
  const exponent = Number(e.slice(at + 1));
  if (exponent >= -4 && exponent < 15) return plainDecimal(e.slice(0, at), exponent);
  const digits = Math.abs(exponent) < 10 ? `0${Math.abs(exponent)}` : String(Math.abs(exponent));
  return `${e.slice(0, at)}e${exponent < 0 ? '-' : '+'}${digits}`;
}

/** Whether the decimal text `text` is exactly halfway between v and one of its neighbouring doubles. */
function onHalfway(v: number, text: string): boolean {
  const d = decimalRational(text);
  for (const n of [nextDouble(v, 1), nextDouble(v, -1)]) {
    const a = binaryRational(v);
    const b = binaryRational(n);
    // (a + b) / 2 over the common denominator of a and b (both powers of two).
    const den = a.den > b.den ? a.den : b.den;
    const num = a.num * (den / a.den) + b.num * (den / b.den);
    if (d.num * den * 2n === num * d.den) return true;
  }
  return false;
}

/** A finite double as num/den exactly (den a power of two). */
function binaryRational(x: number): { num: bigint; den: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const power = (exponent === 0 ? 1 : exponent) - 1075; // value = mantissa × 2^power
  const num = negative ? -mantissa : mantissa;
  return power >= 0 ? { num: num << BigInt(power), den: 1n } : { num, den: 1n << BigInt(-power) };
}

/** The neighbouring double of x towards +∞ (dir 1) or −∞ (dir −1); x finite and not 0. */
function nextDouble(x: number, dir: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, x > 0 === dir > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/** A decimal text ('-4.61628143385175e+16') as num/den exactly (den a power of ten). */
function decimalRational(text: string): { num: bigint; den: bigint } {
  const [mantissa, exp = '0'] = text.split('e');
  const [whole, frac = ''] = mantissa!.split('.');
  const digits = BigInt(`${whole}${frac}`);
  const power = Number(exp) - frac.length;
  return power >= 0
    ? { num: digits * 10n ** BigInt(power), den: 1n }
    : { num: digits, den: 10n ** BigInt(-power) };
}

/** '-1.2345' and exponent 2 → '-123.45'; exponent -3 → '-0.0012345' (no trailing point). */
function plainDecimal(mantissa: string, exponent: number): string {
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/[-.]/g, '');
  const point = exponent + 1; // digits before the decimal point
  const text =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}
