/*
 * Kysely table types (see index.ts): Stored readings and the background sync
 * (per-device state, cursors, the per-app budget), and participant
 * summaries.
 */
import type { LinkProvider } from '@trialwear/contract';
import type { Generated } from 'kysely';
import type { DateOnly, Json, Timestamp } from './columns.js';

export interface DeviceReadingsTable {
  participant_id: number;
  /** The participant's team (kept equal by a composite foreign key). */
  team_id: number;
  metric_key: string;
  measured_at: Timestamp;
  local_date: DateOnly;
  local_time: string | null;
  utc_offset_minutes: number | null;
  value: number | null;
  value_json: Json | null;
  participant_device_id: number | null;
  inserted_at: Generated<Date>;
  /** Provenance (010): the provider that answered and when the reading was fetched. */
  provider: LinkProvider | null;
  fetched_at: Timestamp | null;
}

/** Per participant device: provider budget, Retry-After, and sync health (010). */
export interface DeviceSyncStateTable {
  participant_device_id: number;
  budget_hour: Timestamp | null;
  budget_calls: Generated<number>;
  /** The part of budget_calls interactive reads made this hour (015). */
  interactive_calls: Generated<number>;
  /** Until when the sync waits for a provider limit (015): sync health says so instead of an error. */
  limited_until: Timestamp | null;
  next_allowed_at: Timestamp | null;
  last_attempt_at: Timestamp | null;
  last_success_at: Timestamp | null;
  last_error: string | null;
  last_error_at: Timestamp | null;
  rows_stored: Generated<number>;
  days_with_data_7d: Generated<number>;
  last_data_date: DateOnly | null;
  /** 5xx or no answer in a row (011): the back-off grows with it. */
  failure_streak: Generated<number>;
  /** The participant's IANA zone (Fitbit profile), for the local "today" of sync health (011). */
  time_zone: string | null;
  /** The newest reading's offset, when the provider gives offsets rather than a zone (011). */
  utc_offset_minutes: number | null;
  /** The provider's lastSyncTime of the device at the last sync (017). */
  provider_last_sync_at: Timestamp | null;
  /** The device's battery level in percent at the last sync (017). */
  battery_level: number | null;
  /** When the sync last read the device list (017). */
  device_checked_at: Timestamp | null;
}

/**
 * Per participant device and local day: the readings stored, those showing
 * wear, the newest reading with an offset (015). Kept by triggers on
 * device_readings; sync health reads it instead of the readings.
 */
export interface DeviceReadingDaysTable {
  participant_device_id: number;
  local_date: DateOnly;
  readings: number;
  worn_readings: number;
  newest_at: Timestamp | null;
  newest_offset_minutes: number | null;
}

/** Background-sync provider calls per provider in the current clock hour, all devices (011). */
export interface SyncAppBudgetTable {
  provider: string;
  budget_hour: Timestamp;
  budget_calls: number;
}

/** Per participant device and metric: where the next sync starts (010). */
export interface DeviceSyncCursorsTable {
  participant_device_id: number;
  metric_key: string;
  cursor_date: DateOnly | null;
  cursor_at: Timestamp | null;
  last_success_at: Timestamp | null;
  rows_upserted: Generated<number>;
  /** Intraday metrics: every day up to this local date was read after the tracker uploaded it whole (022). */
  complete_date: DateOnly | null;
}

export interface ParticipantSummariesTable {
  participant_id: number;
  data: Json;
  updated_at: Generated<Date>;
}

/**
 * Per participant, intraday metric and local day: the day's samples on the
 * metric's grid (021, decision 039). Partitioned by month of local_date.
 */
export interface IntradayDaysTable {
  participant_id: number;
  team_id: number;
  metric_key: string;
  local_date: DateOnly;
  /** The instant of samples[1] (the day's local midnight). */
  start_at: Timestamp;
  step_seconds: number;
  utc_offset_minutes: number;
  /** [index, offset, …]: from each 0-based sample index on, that offset (a DST change). */
  offset_shifts: number[] | null;
  samples: (number | null)[];
  value_count: number;
  worn_count: number;
  newest_at: Timestamp;
  newest_offset_minutes: number;
  participant_device_id: number | null;
  provider: LinkProvider | null;
  fetched_at: Timestamp | null;
  inserted_at: Generated<Date>;
}
