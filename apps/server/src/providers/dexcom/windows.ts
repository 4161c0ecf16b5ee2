/*
 * Dexcom windows (providers.md §3.3): startDate/endDate are
 * yyyy-MM-ddTHH:mm:ss without offset, read by Dexcom as UTC (systemTime);
 * one request covers at most 30 days, so longer periods (up to
 * DEXCOM_MAX_PERIOD_DAYS) are walked in consecutive windows and the records
 * merged oldest first, without the duplicates a provider may send at the
 * shared edge of two windows.
 */
import {
  DATA_MESSAGES,
  DEXCOM_MAX_PERIOD_DAYS,
  DEXCOM_MAX_WINDOW_DAYS,
  DEXCOM_RESOURCES,
} from '@trialwear/contract';
import { type DataQuery, type RawQuery, RawQueryRefused } from '../types.js';

const DAY = 86_400_000;
export const DEFAULT_DAYS = 7;

export const dexcomTime = (t: number) => new Date(t).toISOString().slice(0, 19);
const parse = (s: string) => Date.parse(`${s}Z`);

export type WindowCheck = { ok: true; windows: Array<[string, string]> } | { ok: false; message: string };

/** The provider windows for a period (default: the last 7 days up to now). */
export function dexcomWindows(now: Date, startDate?: string, endDate?: string): WindowCheck {
  const end = endDate ? parse(endDate) : Math.floor(now.getTime() / 1000) * 1000;
  const start = startDate ? parse(startDate) : end - DEFAULT_DAYS * DAY;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return { ok: false, message: 'Invalid date' };
  if (!(start < end)) return { ok: false, message: 'The start date must be before the end date' };
  if (end - start > DEXCOM_MAX_PERIOD_DAYS * DAY)
    return { ok: false, message: `The period cannot exceed ${DEXCOM_MAX_PERIOD_DAYS} days` };
  const windows: Array<[string, string]> = [];
  for (let from = start; from < end; from += DEXCOM_MAX_WINDOW_DAYS * DAY)
    windows.push([dexcomTime(from), dexcomTime(Math.min(end, from + DEXCOM_MAX_WINDOW_DAYS * DAY))]);
  return { ok: true, windows };
}

interface DexcomRecord {
  recordId?: string;
  systemTime?: string;
}

/** Records of consecutive windows, oldest first, each once (by recordId, else systemTime). */
export function mergeRecords(pages: ReadonlyArray<readonly unknown[]>): unknown[] {
  const seen = new Set<string>();
  const out: DexcomRecord[] = [];
  for (const page of pages)
    for (const r of page as DexcomRecord[]) {
      const key = r.recordId ?? r.systemTime ?? JSON.stringify(r);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(r);
    }
  return out.sort((a, b) => Date.parse(a.systemTime ?? '') - Date.parse(b.systemTime ?? ''));
}

/** The resources read by window (the others, devices and dataRange, take no period). */
export const WINDOWED_RESOURCES: ReadonlySet<string> = new Set(['egvs', 'calibrations', 'events']);

/** The raw page's query: one Dexcom resource and, for a windowed one, ONE window of at most 30 days. */
export function dexcomRawQuery(q: RawQuery, now: Date): DataQuery {
  if (!(DEXCOM_RESOURCES as readonly string[]).includes(q.resource))
    throw new RawQueryRefused(DATA_MESSAGES.unknownResource);
  const params: Record<string, string> = {};
  if (WINDOWED_RESOURCES.has(q.resource)) {
    const w = dexcomWindows(now, q.startDate, q.endDate);
    if (!w.ok) throw new RawQueryRefused(w.message);
    // Raw is one provider call: a period that needs stitching is refused.
    if (w.windows.length > 1) throw new RawQueryRefused('The period cannot exceed 30 days');
    [params.startDate, params.endDate] = w.windows[0]!;
  }
  return { resource: q.resource, params };
}
