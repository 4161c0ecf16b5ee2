/*
 * Local days of a provider that answers with offsets, not a zone (Omron,
 * Dexcom): "today" is the local date at `now` under the newest reading's
 * offset (UTC without a reading), and a local date's first instant under
 * that offset. Good enough for study health's last few days: a participant
 * who crossed zones in those days is counted by each reading's own date.
 */
import type { SeriesPoint } from '@trialwear/contract';
import { addDays, utcDate } from '@trialwear/zone';

export function offsetDays(points: readonly SeriesPoint[], now: Date, count: number) {
  const newest = points.reduce<SeriesPoint | null>((a, p) => (!a || p.at > a.at ? p : a), null);
  const offsetMs = (newest?.offsetMinutes ?? 0) * 60_000;
  const today = utcDate(now.getTime() + offsetMs);
  const dates = Array.from({ length: count }, (_, i) => addDays(today, i - count + 1));
  /** The first instant (ms) of a local date under that offset. */
  const startOf = (date: string) => Date.parse(`${date}T00:00:00Z`) - offsetMs;
  return { dates, startOf };
}
