/*
 * Kysely table types (see index.ts): Batch export jobs and the span of dates
 * their fetch step has read.
 */
import type { Generated } from 'kysely';
import type { DateOnly, Json, Timestamp } from './columns.js';

export interface ExportJobsTable {
  id: Generated<string>;
  team_id: number;
  user_id: number | null;
  trial_id: number | null;
  status: Generated<'pending' | 'processing' | 'completed' | 'failed' | 'cancelled' | 'expired'>;
  job_params: Json;
  file_path: string | null;
  file_size: string | null;
  error_message: string | null;
  created_at: Generated<Date>;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  expires_at: Timestamp | null;
  /** Migration 012: progress, cancel, lease (worker ownership), storage, manifest, expiry. */
  rows_written: Generated<string>;
  rows_total: string | null;
  phase: string | null;
  cancel_requested_at: Timestamp | null;
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_expires_at: Timestamp | null;
  not_before: Timestamp | null;
  storage_key: string | null;
  manifest: Json | null;
  expired_at: Timestamp | null;
  updated_at: Generated<Date>;
}

/** What the export's fetch step read per device and metric (012): one span of local dates. */
export interface ExportFetchCoverageTable {
  participant_device_id: number;
  metric_key: string;
  from_date: DateOnly;
  to_date: DateOnly;
  fetched_at: Timestamp;
}
