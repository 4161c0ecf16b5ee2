/*
 * proto3-JSON rendering (google-health-api.md §3.1): Timestamps in RFC 3339
 * UTC with `Z`, Durations as `"<seconds>s"`, google.type.Date and TimeOfDay
 * objects, int64 as strings, default values omitted; and Google's error
 * envelope (§4.1).
 */
import { offsetMinutesAt, wallClockMs } from '@trialwear/zone';

/** RFC 3339 UTC with Z: no fraction on whole seconds, milliseconds otherwise. */
export function timestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

/** A Duration: whole seconds with an `s` suffix, fractions when needed (`"-14400s"`, `"1.5s"`). */
export const duration = (seconds: number) => `${Number.isInteger(seconds) ? seconds : seconds.toFixed(3)}s`;

/** Parse a Duration (`"60s"`, `"0.5s"`): seconds, or null when malformed. */
export function parseDuration(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = v.match(/^(-?\d+(?:\.\d{1,9})?)s$/);
  return m ? Number(m[1]) : null;
}

/** google.type.Date of a `YYYY-MM-DD`. */
export function gDate(date: string) {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) };
}

/** A `google.type.Date` object back to `YYYY-MM-DD` (null when it is not one). */
export function dateOfG(v: unknown): string | null {
  if (!v || typeof v !== 'object') return null;
  const { year, month, day } = v as Record<string, unknown>;
  if (![year, month, day].every((n) => Number.isInteger(n))) return null;
  const s = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s ? s : null;
}

/** CivilDateTime of a local `YYYY-MM-DDTHH:mm:ss[.sss]`: zero time fields omitted (midnight is `{}`). */
export function civil(local: string) {
  const time: Record<string, number> = {};
  const h = Number(local.slice(11, 13));
  const mi = Number(local.slice(14, 16));
  const s = Number(local.slice(17, 19));
  if (h) time.hours = h;
  if (mi) time.minutes = mi;
  if (s) time.seconds = s;
  return { date: gDate(local.slice(0, 10)), time };
}

/** The local wall-clock time of an instant in a zone, `YYYY-MM-DDTHH:mm:ss`. */
export const localAt = (tz: string, t: number) => wallClockMs(tz, t).slice(0, 19);

/** The offset of a zone at an instant as a Duration (`"-14400s"`). */
export const utcOffset = (tz: string, t: number) => duration(offsetMinutesAt(tz, t) * 60);

/** ObservationTimeInterval / SessionTimeInterval. */
export function interval(tz: string, start: number, end: number) {
  return {
    startTime: timestamp(start),
    startUtcOffset: utcOffset(tz, start),
    endTime: timestamp(end),
    endUtcOffset: utcOffset(tz, end),
    civilStartTime: civil(localAt(tz, start)),
    civilEndTime: civil(localAt(tz, end)),
  };
}

/** ObservationSampleTime. */
export function sampleTime(tz: string, t: number) {
  return { physicalTime: timestamp(t), utcOffset: utcOffset(tz, t), civilTime: civil(localAt(tz, t)) };
}

/**
 * proto3 JSON drops fields holding their default (0, "0" for int64, "",
 * false, empty lists); a set message stays, even when empty (`{}`).
 */
export function omitDefaults<T>(v: T): T {
  if (Array.isArray(v)) return v.map(omitDefaults) as T;
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x === undefined || x === null || x === 0 || x === '0' || x === '' || x === false) continue;
    if (Array.isArray(x) && x.length === 0) continue;
    out[k] = omitDefaults(x);
  }
  return out as T;
}

export const STATUS_OF_CODE: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** The standard Google error body (§4.1), with an ErrorInfo when a reason is known. */
export function googleError(
  code: number,
  message: string,
  info?: { reason: string; method?: string; domain?: string; metadata?: Record<string, string> },
  status = STATUS_OF_CODE[code] ?? 'UNKNOWN',
) {
  return {
    error: {
      code,
      message,
      status,
      ...(info && {
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: info.reason,
            domain: info.domain ?? 'health.googleapis.com',
            metadata: {
              service: 'health.googleapis.com',
              ...(info.method && { method: `google.devicesandservices.health.v4.${info.method}` }),
              ...info.metadata,
            },
          },
        ],
      }),
    },
  };
}

/** A request the simulator refuses: thrown by the handlers, rendered by the route wrapper. */
export class GoogleApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason?: string,
    /** The canonical status when not the code's usual one (FAILED_PRECONDITION is sent as 400). */
    readonly status?: string,
  ) {
    super(message);
  }
}
