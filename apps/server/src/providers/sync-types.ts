/*
 * What a provider's sync module works with: a reader that stops the sync by
 * throwing (rate limit, budget, revoked token, provider down), the metrics
 * to read with their cursors, and what it hands back per provider read — the
 * readings and the new cursors of the metrics that read covered, stored
 * together so that a crash between two reads loses and repeats nothing.
 */
import type { DataQuery, DeviceEntry, ProviderAnswer, SeriesSet } from './types.js';

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
  /** Intraday metrics: every day up to this local date was read after the tracker uploaded it whole. */
  complete?: string | null;
}

export interface CursorUpdate {
  date?: string | null;
  at?: Date | null;
  complete?: string | null;
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
  /** When the tracker last uploaded to the provider (its device list, kept by the device check); null if not known. */
  uploadedAt: Date | null;
  cursor(metric: string): Cursor;
  /** Store one group's readings and cursors now (one transaction). */
  store(group: GroupResult): Promise<void>;
  fail(failure: GroupFailure): void;
  /** The run stopped at its per-run limit with days of a backfill still to read (another run soon reads on). */
  more(): void;
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

/**
 * One participant-local day of a device's study health (issue #23), as the
 * provider's data shows it: wear minutes (Fitbit: minutes with a heart-rate
 * sample), CGM active percent (Dexcom: the day's EGVs of 288), blood-pressure
 * readings (Omron). null: no data (the provider has not synced that day).
 */
export interface HealthDay {
  date: string;
  wearMinutes?: number | null;
  cgmActivePercent?: number | null;
  bpReadings?: number | null;
}

export interface HealthIO {
  now: Date;
  /** One budgeted read, as the provider module's normalized series. */
  series(query: DataQuery, timeZone: string | null): Promise<SeriesSet>;
  /** The participant's IANA zone (Fitbit profile, cached); null for providers that answer with offsets. */
  zone(): Promise<string | null>;
  /** When the provider last received the device's data (its device list), null if never. */
  lastSyncAt: Date | null;
}

/** A provider's study-health measure: the days it re-reads each check (the last 3 complete local days and today). */
export interface ProviderHealth {
  /** The instant of the device list's last sync (each provider writes it its own way). */
  lastSyncAt(entries: readonly DeviceEntry[], timeZone: string | null): Date | null;
  days(io: HealthIO): Promise<HealthDay[]>;
}

/** Days re-read by every health check: the last complete local days, so a late upload is followed. */
export const HEALTH_COMPLETE_DAYS = 3;
