/*
 * What a provider's sync module works with: a reader that stops the sync by
 * throwing (rate limit, budget, revoked token, provider down), the metrics
 * to read with their cursors, and what it hands back per provider read — the
 * readings and the new cursors of the metrics that read covered, stored
 * together so that a crash between two reads loses and repeats nothing.
 */
import type { DataQuery, ProviderAnswer, SeriesSet } from './types.js';

/** One row of device_readings, in the provider's unit. */
export interface Reading {
  metricKey: string;
  /** The UTC instant (daily values: the local midnight instant in the participant's zone). */
  measuredAt: Date;
  localDate: string;
  /** HH:mm:ss local wall-clock time. */
  localTime: string;
  utcOffsetMinutes: number;
  value: number | null;
  valueJson: unknown;
}

export interface Cursor {
  /** Daily values: the last local date read (re-read next time: that day may still grow). */
  date: string | null;
  /** Timed readings: the instant of the newest reading stored. */
  at: Date | null;
}

export interface CursorUpdate {
  date?: string | null;
  at?: Date | null;
}

/** One provider read (or a short series of pages) and what it gives. */
export interface GroupResult {
  metrics: readonly string[];
  readings: Reading[];
  cursor: CursorUpdate;
}

/** A read that failed for this group only (e.g. a scope not granted): recorded, the other groups go on. */
export interface GroupFailure {
  metrics: readonly string[];
  error: string;
}

export interface SyncIO {
  now: Date;
  backfillDays: number;
  /** How far back a stale cursor is followed (default: the provider's catch-up limit); the export's range raises it. */
  catchUpDays?: number;
  /** One provider call, counted against the budget; throws a SyncStop or a transient error. */
  read(query: DataQuery): Promise<ProviderAnswer>;
  /** `read`, answered as the provider module's normalized series (decision 030); local times in `timeZone` where the provider answers in local time. */
  series(query: DataQuery, timeZone: string | null): Promise<SeriesSet>;
  /** The participant's IANA zone (Fitbit profile, cached). */
  zone(): Promise<string>;
  cursor(metric: string): Cursor;
  /** Store one group's readings and cursors now (one transaction). */
  store(group: GroupResult): Promise<void>;
  fail(failure: GroupFailure): void;
}

export interface ProviderSync {
  /** The catalog metric keys this provider's sync can read. */
  metrics: readonly string[];
  run(io: SyncIO, metrics: readonly string[]): Promise<void>;
}

/** A reason to stop syncing the device now; not an error for pg-boss to retry. */
export class SyncStop extends Error {
  constructor(
    readonly kind: 'rate_limited' | 'budget' | 'revoked',
    message: string,
    /** When the provider (or our budget) allows the next call. */
    readonly nextAllowedAt: Date | null = null,
  ) {
    super(message);
  }
}

/** A provider answer other than 2xx that concerns only this read (4xx other than 401/429). */
export class ReadRefused extends Error {}
