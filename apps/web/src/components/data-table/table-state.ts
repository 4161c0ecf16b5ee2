/*
 * What a table remembers. Filter text, page and sort live in sessionStorage
 * for the session (core §2: "remembered for the session"; saved filter under
 * 1000 characters, page under 10000). Hidden columns live in localStorage.
 */

import type { SortingState } from '@tanstack/react-table';
import { LIMITS, TABLE } from '@trialwear/contract';

export interface SavedTableState {
  globalFilter: string;
  pageIndex: number;
  pageSize: number;
  sorting: SortingState;
}

const SESSION_PREFIX = 'tw.table.';
const COLUMNS_PREFIX = 'tw.columns.';

export const DEFAULT_TABLE_STATE: SavedTableState = {
  globalFilter: '',
  pageIndex: 0,
  pageSize: TABLE.defaultPageSize,
  sorting: [],
};

export function loadTableState(key: string, defaultPageSize: number): SavedTableState {
  const fallback = { ...DEFAULT_TABLE_STATE, pageSize: defaultPageSize };
  try {
    const raw = sessionStorage.getItem(SESSION_PREFIX + key);
    if (!raw) return fallback;
    const s = JSON.parse(raw) as Partial<SavedTableState>;
    return {
      globalFilter:
        typeof s.globalFilter === 'string' && s.globalFilter.length < LIMITS.savedFilterMaxChars
          ? s.globalFilter
          : '',
      pageIndex:
        Number.isInteger(s.pageIndex) && s.pageIndex! >= 0 && s.pageIndex! < LIMITS.savedPageMax
          ? s.pageIndex!
          : 0,
      pageSize: (TABLE.pageSizes as readonly number[]).includes(s.pageSize ?? -1)
        ? s.pageSize!
        : defaultPageSize,
      sorting: Array.isArray(s.sorting) ? s.sorting.filter((x) => typeof x?.id === 'string') : [],
    };
  } catch {
    return fallback;
  }
}

export function saveTableState(key: string, state: SavedTableState) {
  const safe: SavedTableState = {
    ...state,
    globalFilter: state.globalFilter.length < LIMITS.savedFilterMaxChars ? state.globalFilter : '',
    pageIndex: state.pageIndex < LIMITS.savedPageMax ? state.pageIndex : 0,
  };
  sessionStorage.setItem(SESSION_PREFIX + key, JSON.stringify(safe));
}

/** Forget every remembered table whose key starts with prefix (the dashboard clears the participant tables). */
export function clearTableStates(prefix: string) {
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const k = sessionStorage.key(i);
    if (k?.startsWith(SESSION_PREFIX + prefix)) sessionStorage.removeItem(k);
  }
}

export function loadHiddenColumns(key: string): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(COLUMNS_PREFIX + key) ?? '[]');
    return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function saveHiddenColumns(key: string, hidden: string[]) {
  localStorage.setItem(COLUMNS_PREFIX + key, JSON.stringify(hidden));
}
