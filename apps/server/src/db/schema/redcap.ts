/* Kysely table types (see index.ts): REDCap (026) — a trial's connection and its push log. */
import type { Generated } from 'kysely';
import type { DateOnly, Json, Timestamp } from './columns.js';

export interface RedcapSettingsTable {
  trial_id: number;
  api_url: string;
  /** Sealed by security/encryption.ts; never leaves the server. */
  token_enc: string;
  record_id_field: string;
  email_field: string | null;
  instrument: string;
  event_name: string | null;
  date_field: string;
  field_map: Json;
  push_enabled: Generated<boolean>;
  push_lease_until: Timestamp | null;
  updated_at: Generated<Date>;
  updated_by: number | null;
}

export interface RedcapPushLogTable {
  id: Generated<number>;
  trial_id: number;
  trigger: 'manual' | 'nightly';
  from_date: DateOnly;
  to_date: DateOnly;
  status: 'running' | 'done' | 'failed';
  attempt: Generated<number>;
  will_retry: Generated<boolean>;
  records: number | null;
  rows: number | null;
  error: string | null;
  started_at: Generated<Date>;
  finished_at: Timestamp | null;
  started_by: number | null;
}
