/*
 * The Google Health API calls the reader makes (google-health-api.md §3):
 * dataPoints.list (every page, until the token is absent — a page may be
 * empty and still carry one), dailyRollUp in civil-day chunks of at most 14
 * days (no pageSize: one live report refuses it), rollUp in physical-time
 * windows, and the user resources (identity, settings, paired devices).
 * A failure is thrown as GoogleCallFailed and turned back into a
 * ProviderFailure by the reader, so a read (google-reads.ts) reads like the
 * calls it makes; every answered call is kept as received (`answered`).
 */
import { addDays } from '@trialwear/zone';
import { bearerHeader, callJson, type ErrorOf } from '../../http-json.js';
import type { ProviderFailure } from '../../types.js';
import { type CivilDateTime, googleDate } from './civil-time.js';

/** Google's error body: {error:{code,message,status,details:[{reason}]}} (§4.1). */
export const googleErrorOf: ErrorOf = (body, res) => {
  const e = (body as { error?: unknown } | null)?.error;
  if (e && typeof e === 'object') {
    const g = e as { message?: string; status?: string; details?: Array<{ reason?: string }> };
    return {
      errorType: g.details?.find((d) => d.reason)?.reason ?? g.status ?? 'system',
      message: g.message ?? res.statusText,
    };
  }
  // The OAuth endpoints answer RFC 6749 bodies: {error:"invalid_grant", error_description}.
  const o = (body ?? {}) as { error?: string; error_description?: string };
  return {
    errorType: typeof o.error === 'string' ? o.error : res.status === 429 ? 'RESOURCE_EXHAUSTED' : 'system',
    message: o.error_description ?? res.statusText,
  };
};

export class GoogleCallFailed extends Error {
  constructor(readonly failure: ProviderFailure) {
    super(failure.message);
  }
}

/** Chunk of a dailyRollUp: 14 civil days (the proto says 14 or 90 per type; one live report says 14 for all). */
const DAILY_CHUNK_DAYS = 14;
/** Pages read at most for one list: bounded, never a loop without end. */
const MAX_PAGES = 200;

export interface RollupPoint {
  civilStartTime?: CivilDateTime;
  civilEndTime?: CivilDateTime;
  startTime?: string;
  endTime?: string;
  [payload: string]: unknown;
}

export type DataPoint = Record<string, unknown> & {
  name?: string;
  dataSource?: {
    recordingMethod?: string;
    platform?: string;
    device?: { displayName?: string; formFactor?: string; manufacturer?: string };
  };
};

/**
 * One call as made and answered: `request` is the method and path (no host,
 * no token), `sent` the JSON body of a POST (a roll-up's range and window),
 * `body` Google's answer as received.
 */
export interface GoogleCall {
  request: string;
  sent?: object;
  body: unknown;
}

/**
 * One authorized caller of the API for a user's token; it remembers the
 * calls made (the answer's `request`) and, of those Google answered, the
 * answers (`answered`: the reader's answer body).
 */
export class GoogleHealthCalls {
  readonly made: string[] = [];
  readonly answered: GoogleCall[] = [];

  constructor(
    private readonly apiUrl: string,
    private readonly accessToken: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    this.made.push(`${method} ${path}`);
    const r = await callJson<T>(
      `${this.apiUrl}${path}`,
      {
        method,
        headers: {
          ...bearerHeader(this.accessToken),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      },
      googleErrorOf,
    );
    if (!r.ok) throw new GoogleCallFailed(r);
    this.answered.push({ request: `${method} ${path}`, ...(body ? { sent: body } : {}), body: r.data ?? {} });
    return (r.data ?? {}) as T;
  }

  get<T>(path: string) {
    return this.call<T>('GET', path);
  }

  /** Every point of a dataPoints.list (newest first, as Google orders them). */
  async list(dataType: string, filter: string, pageSize: number): Promise<DataPoint[]> {
    const out: DataPoint[] = [];
    let pageToken = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const q = new URLSearchParams({ pageSize: String(pageSize), filter });
      if (pageToken) q.set('pageToken', pageToken);
      const r = await this.get<{ dataPoints?: DataPoint[]; nextPageToken?: string }>(
        `/v4/users/me/dataTypes/${dataType}/dataPoints?${q}`,
      );
      out.push(...(r.dataPoints ?? []));
      pageToken = r.nextPageToken ?? '';
      if (!pageToken) break;
    }
    return out;
  }

  /** dailyRollUp over the civil dates start..end (inclusive), in chunks; the points of every chunk. */
  async dailyRollUp(dataType: string, start: string, end: string): Promise<RollupPoint[]> {
    const out: RollupPoint[] = [];
    for (let from = start; from <= end; from = addDays(from, DAILY_CHUNK_DAYS)) {
      const last = [addDays(from, DAILY_CHUNK_DAYS - 1), end].sort()[0]!;
      const r = await this.call<{ rollupDataPoints?: RollupPoint[] }>(
        'POST',
        `/v4/users/me/dataTypes/${dataType}/dataPoints:dailyRollUp`,
        {
          range: { start: { date: googleDate(from) }, end: { date: googleDate(addDays(last, 1)) } },
          windowSizeDays: 1,
        },
      );
      out.push(...(r.rollupDataPoints ?? []));
    }
    return out;
  }

  /** rollUp over [start, end) (RFC 3339 instants) in windows of `windowSeconds`; every page. */
  async rollUp(dataType: string, start: string, end: string, windowSeconds: number): Promise<RollupPoint[]> {
    const out: RollupPoint[] = [];
    const pageSize = Math.min(
      10_000,
      Math.ceil((Date.parse(end) - Date.parse(start)) / (windowSeconds * 1000)) + 1,
    );
    let pageToken = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await this.call<{ rollupDataPoints?: RollupPoint[]; nextPageToken?: string }>(
        'POST',
        `/v4/users/me/dataTypes/${dataType}/dataPoints:rollUp`,
        {
          range: { startTime: start, endTime: end },
          windowSize: `${windowSeconds}s`,
          pageSize,
          ...(pageToken ? { pageToken } : {}),
        },
      );
      out.push(...(r.rollupDataPoints ?? []));
      pageToken = r.nextPageToken ?? '';
      if (!pageToken) break;
    }
    return out;
  }
}

/** The user's settings: the IANA zone every civil value is in, and its current offset. */
export interface GoogleSettings {
  timeZone?: string;
  utcOffset?: string;
}
