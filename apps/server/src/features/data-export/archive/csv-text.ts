/*
 * The export CSV's text of each value, written in Node from PostgreSQL's
 * binary COPY values (binary-copy-csv.ts), character for character what
 * PostgreSQL's own text output gives for them (test/data-export/csv-text):
 *
 *   date         days since 2000-01-01        → 2026-03-29        (DateStyle ISO)
 *   time         µs since midnight            → 02:00:00, 23:55:00.5 (fraction trimmed)
 *   timestamptz  µs since 2000-01-01 UTC      → 2026-03-29T01:00:00Z, …T06:55:00.5Z
 *   smallint     UTC offset in minutes        → +01:00, -07:00, +05:45
 *   float8                                      → 7001.5, 1e-05, 1.5e+16 (shortest exact, extra_float_digits ≥ 1)
 *
 * Why in Node: PostgreSQL runs one export COPY on one core, and its text
 * output functions (and the expressions that shaped the offset and the
 * instant) were most of that core's time, while the Node process waited for
 * rows (bench/export). Formatting here moves that work beside the deflate.
 * Consecutive readings share their dates and offsets, so the formatters keep
 * the last value's text and a table of the day's seconds.
 */

const MS_PER_DAY = 86_400_000;
const US_PER_DAY = 86_400_000_000;
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

const two = (n: number) => (n < 10 ? `0${n}` : String(n));
/** 'HH:MM:SS' of each second of a day, made on first use. */
const SECONDS_OF_DAY: string[] = new Array(86_400);

/** HH:MM:SS[.ffffff without trailing zeros] of µs since midnight (0 … 24:00:00). */
export function pgTime(us: number): string {
  const s = Math.floor(us / 1_000_000);
  let text: string | undefined;
  if (s < 86_400) {
    text = SECONDS_OF_DAY[s];
    if (text === undefined) {
      text = `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
      SECONDS_OF_DAY[s] = text;
    }
  } else text = `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  const fraction = us - s * 1_000_000;
  if (fraction === 0) return text;
  return `${text}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
}

/** The text of a date, remembering the last one (consecutive readings share their date). */
export function dateFormatter(): (days: number) => string {
  let lastDays = Number.NaN;
  let lastText = '';
  return (days) => {
    if (days !== lastDays) {
      lastText = pgDate(days);
      lastDays = days;
    }
    return lastText;
  };
}

/** ISO 8601 UTC instant (YYYY-MM-DDTHH:MM:SS[.f]Z) of a timestamptz's µs since 2000-01-01. */
export function instantFormatter(): (us: number) => string {
  const date = dateFormatter();
  return (us) => {
    const days = Math.floor(us / US_PER_DAY);
    return `${date(days)}T${pgTime(us - days * US_PER_DAY)}Z`;
  };
}

/** ±HH:MM of an offset in minutes. */
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
  const e = v.toExponential(); // shortest digits, e.g. '1.5e+16', '9e-5'
  const at = e.indexOf('e');
  const exponent = Number(e.slice(at + 1));
  if (exponent >= -4 && exponent < 15) return String(v);
  const digits = Math.abs(exponent) < 10 ? `0${Math.abs(exponent)}` : String(Math.abs(exponent));
  return `${e.slice(0, at)}e${exponent < 0 ? '-' : '+'}${digits}`;
}
