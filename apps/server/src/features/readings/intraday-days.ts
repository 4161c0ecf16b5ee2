/*
 * Readings of an intraday metric (contract INTRADAY_STEP_SECONDS) as the
 * day rows intraday_days stores (migration 021, decision 039): one per
 * participant, metric and participant-local date, the samples in an array
 * indexed by their distance from the day's start on the metric's grid.
 *
 * A day's start is its local midnight as the day's first reading places it
 * (its instant minus its local time of day); the offset in force is the
 * first reading's, and each change of offset after it (a DST change) is
 * kept as [index, offset] in offset_shifts. Trailing minutes without a
 * sample are not stored (the array ends at the newest sample).
 *
 * A reading off the grid (its instant not a whole number of steps from the
 * day's start), or without a local time or offset, is refused with an error:
 * nothing is rounded or dropped.
 */
import type { ReadingRow } from './repo.js';

export interface IntradayDayRow {
  participant_id: number;
  team_id: number;
  metric_key: string;
  local_date: string;
  start_at: Date;
  step_seconds: number;
  utc_offset_minutes: number;
  /** [index, offset, index, offset, …]: from each index on, that offset; null: one offset all day. */
  offset_shifts: number[] | null;
  /** samples[i]: the value at start_at + i × step_seconds; null where there is none. */
  samples: (number | null)[];
  value_count: number;
  newest_at: Date;
  newest_offset_minutes: number;
  participant_device_id: number | null;
  provider: string | null;
  fetched_at: Date | null;
}

const TIME = /^(\d{2}):(\d{2}):(\d{2})$/;

function secondsOfDay(localTime: string | null | undefined): number | null {
  const m = TIME.exec(localTime ?? '');
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
}

/** The readings (all of intraday metrics) grouped into day rows; `stepOf` gives each metric's grid. */
export function intradayDays(
  rows: readonly ReadingRow[],
  stepOf: (metric: string) => number,
): IntradayDayRow[] {
  const groups = new Map<string, ReadingRow[]>();
  for (const r of rows) {
    const key = `${r.participant_id}|${r.metric_key}|${r.local_date}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const days: IntradayDayRow[] = [];
  for (const group of groups.values()) {
    // One reading per instant: a repeated instant keeps its last row (as the readings upsert does).
    const byInstant = new Map<number, ReadingRow>();
    for (const r of group) byInstant.set(r.measured_at.getTime(), r);
    const readings = [...byInstant.values()].sort(
      (a, b) => a.measured_at.getTime() - b.measured_at.getTime(),
    );
    const first = readings[0]!;
    const last = readings.at(-1)!;
    const step = stepOf(first.metric_key);
    const stepMs = step * 1000;
    const firstSeconds = secondsOfDay(first.local_time);
    if (firstSeconds === null || first.utc_offset_minutes == null)
      throw offGrid(first, step, 'has no local time or offset');
    const startMs = first.measured_at.getTime() - firstSeconds * 1000;
    const indexes = readings.map((r) => {
      const index = (r.measured_at.getTime() - startMs) / stepMs;
      if (!Number.isInteger(index) || r.utc_offset_minutes == null || r.local_time == null)
        throw offGrid(r, step, `is off the ${step}-second grid of ${r.local_date}`);
      return index;
    });
    const samples: (number | null)[] = new Array(indexes.at(-1)! + 1).fill(null);
    const shifts: number[] = [];
    let offset = first.utc_offset_minutes;
    let valueCount = 0;
    readings.forEach((r, k) => {
      if (r.utc_offset_minutes !== offset) {
        shifts.push(indexes[k]!, r.utc_offset_minutes!);
        offset = r.utc_offset_minutes!;
      }
      const value = r.value ?? null;
      samples[indexes[k]!] = value;
      if (value !== null) valueCount++;
    });
    days.push({
      participant_id: first.participant_id,
      team_id: first.team_id,
      metric_key: first.metric_key,
      local_date: first.local_date,
      start_at: new Date(startMs),
      step_seconds: step,
      utc_offset_minutes: first.utc_offset_minutes,
      offset_shifts: shifts.length > 0 ? shifts : null,
      samples,
      value_count: valueCount,
      newest_at: last.measured_at,
      newest_offset_minutes: last.utc_offset_minutes!,
      participant_device_id: last.participant_device_id ?? null,
      provider: last.provider ?? null,
      fetched_at: last.fetched_at ?? null,
    });
  }
  return days;
}

function offGrid(r: ReadingRow, step: number, what: string) {
  return new Error(
    `intraday ${r.metric_key}: the reading at ${r.measured_at.toISOString()} (participant ${r.participant_id}, ` +
      `step ${step} s) ${what}`,
  );
}
