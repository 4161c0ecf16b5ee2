/*
 * Order of the overview tiles: Shift mode moves a tile (the others shift and
 * the numbers follow), Swap mode exchanges two. The order is kept per user in
 * localStorage (this browser), restored on the next visit; subjects added
 * later are appended, unknown ones dropped.
 */
import { SUMMARY_SUBJECTS, type SummarySubject } from '@trialwear/contract';

export type TileMode = 'shift' | 'swap';

export function shiftTile<T>(order: readonly T[], from: number, to: number): T[] {
  const next = [...order];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return [...order];
  next.splice(to, 0, moved);
  return next;
}

export function swapTiles<T>(order: readonly T[], a: number, b: number): T[] {
  const next = [...order];
  if (a < 0 || b < 0 || a >= next.length || b >= next.length) return next;
  [next[a], next[b]] = [next[b]!, next[a]!];
  return next;
}

export const reorder = <T>(mode: TileMode, order: readonly T[], from: number, to: number) =>
  mode === 'shift' ? shiftTile(order, from, to) : swapTiles(order, from, to);

/** What a drag did, in the tiles' titles (read out by screen readers and shown under the tiles). */
export const reorderMessage = (mode: TileMode, moved: string, over: string, to: number) =>
  mode === 'shift' ? `Moved ${moved} to position ${to + 1}.` : `Swapped ${moved} and ${over}.`;

const storageKey = (userId: number) => `trialwear.fitbitOverviewTiles.${userId}`;

export function restoreOrder(stored: unknown): SummarySubject[] {
  const known = new Set<string>(SUMMARY_SUBJECTS);
  const kept = Array.isArray(stored)
    ? stored.filter((s): s is SummarySubject => typeof s === 'string' && known.has(s))
    : [];
  const unique = [...new Set(kept)];
  return [...unique, ...SUMMARY_SUBJECTS.filter((s) => !unique.includes(s))];
}

export function loadTileOrder(userId: number | null): SummarySubject[] {
  if (userId === null) return [...SUMMARY_SUBJECTS];
  try {
    return restoreOrder(JSON.parse(localStorage.getItem(storageKey(userId)) ?? 'null'));
  } catch {
    return [...SUMMARY_SUBJECTS];
  }
}

export function saveTileOrder(userId: number | null, order: readonly SummarySubject[]) {
  if (userId === null) return;
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(order));
  } catch {
    // Storage full or disabled: the order just is not remembered.
  }
}
