/*
 * Kysely table types for the SQL in migrations/: every table and column.
 * Kept by hand (not generated) so that they carry what the database enforces
 * only with CHECK constraints — the literal unions of providers, statuses and
 * roles. test/platform/schema-drift.int.test.ts fails when they drift from
 * the migrated database.
 */

import type { LinkProvider, Role } from '@trialwear/contract';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type DateOnly = ColumnType<string, string | undefined, string>;
/** jsonb: read as parsed JSON, written as JSON text. */
type Json = ColumnType<unknown, string, string>;
/** A column a trigger fills on insert (so inserts may leave it out, though it has no default). */
type TriggerFilled<T> = Generated<T>;

export interface TeamsTable {
  id: Generated<number>;
  team_name: string;
  is_active: Generated<boolean>;
  subscription_starts: DateOnly | null;
  subscription_ends: DateOnly | null;
  subscription_type: string | null;
  max_users: number | null;
  max_trials: number | null;
  max_participants: number | null;
  team_admin_email: string | null;
  team_admin_phone: string | null;
  organization: string | null;
  notes: string | null;
  monthly_rate_per_participant: string | null;
  retention_days: number | null;
  storage_location: string | null;
  hidden_participant_fields: string[] | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  organization: string | null;
  password_hash: string;
  is_active: Generated<boolean>;
  sfa_required: Generated<boolean>;
  sfa_enabled: Generated<boolean>;
  sfa_type: 'totp' | 'email' | null;
  sfa_secret_enc: string | null;
  sfa_last_totp_step: string | null;
  token_version: Generated<number>;
  last_selected_team_id: number | null;
  create_time: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Failed sign-ins and the temporary lock, per lower-case username (known or not): migration 007. */
export interface LoginLockoutsTable {
  username_key: string;
  failed_attempts: Generated<number>;
  lock_count: Generated<number>;
  locked_until: Timestamp | null;
  last_failed_at: Timestamp;
}

export interface TeamMembershipsTable {
  user_id: number;
  team_id: number;
  role: Role;
  default_team: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  team_id: number | null;
  auth_status: string;
  token_version: number;
  created_at: Generated<Date>;
  refreshed_at: Generated<Date>;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface RememberedDevicesTable {
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface EmailSfaCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SignupInvitationsTable {
  token_hash: string;
  email: string;
  role: 'Admin' | 'User' | 'Viewer';
  team_id: number;
  approved_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  used_by: number | null;
}

export interface ParticipantAccountsTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  participant_id: number | null;
  created_at: Generated<Date>;
  /** Migration 008: set when the owner opened the confirmation link of the sign-up mail. */
  email_verified_at: Timestamp | null;
  email_verify_token_hash: string | null;
}

/** A participant's session (migration 008): apart from staff sessions, never one of them. */
export interface ParticipantSessionsTable {
  id: string;
  account_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface TrialsTable {
  id: Generated<number>;
  team_id: number;
  trial_number: string;
  trial_name: string;
  trial_notes: string | null;
  trial_code: string;
  owner_user_id: number | null;
  creation_date: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TrialUsersTable {
  trial_id: number;
  user_id: number;
  added_at: Generated<Date>;
}

export interface ParticipantsTable {
  id: Generated<number>;
  team_id: number;
  trial_id: number;
  email: string;
  gender: Generated<'None' | 'female' | 'male' | 'other'>;
  age: number | null;
  notes: string | null;
  participant_code_suffix: string | null;
  participant_code: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ParticipantDevicesTable {
  id: Generated<number>;
  participant_id: number;
  /** The participant's team (kept equal by a composite foreign key). */
  team_id: number;
  global_device_catalog_id: number | null;
  provider: LinkProvider;
  authorization_status: Generated<'pending' | 'authorized' | 'revoked' | 'error'>;
  authorization_date: Timestamp | null;
  provider_user_id: string | null;
  /** A Google Health link's legacy Fitbit user id (identity.legacyUserId; migration 013). */
  legacy_user_id: string | null;
  provider_timezone: string | null;
  notes: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OAuthStatesTable {
  nonce: string;
  participant_id: number;
  provider: LinkProvider;
  code_verifier: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  consent_token_hash: string | null;
}

export interface ConsentLinksTable {
  token_hash: string;
  participant_id: number;
  team_id: number;
  provider: 'fitbit' | 'omron' | 'dexcom';
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ProviderTokensTable {
  participant_device_id: number;
  access_token_enc: string;
  refresh_token_enc: string | null;
  scope: string | null;
  token_type: string | null;
  expires_at: Timestamp | null;
  version: Generated<number>;
  updated_at: Timestamp;
}

export interface GlobalDeviceCatalogTable {
  id: Generated<number>;
  manufacturer: 'Fitbit' | 'Omron' | 'Dexcom';
  device_type: string;
  device_name: string;
  context: string | null;
  description: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TeamAllowedBrandsTable {
  team_id: number;
  brand_name: 'Fitbit' | 'Omron' | 'Dexcom';
  is_active: Generated<boolean>;
}

export interface TeamSupportedDevicesTable {
  id: Generated<number>;
  team_id: number;
  global_device_catalog_id: number;
  is_active: Generated<boolean>;
  notes: string | null;
}

export interface MetricCatalogTable {
  id: Generated<number>;
  metric_key: string;
  metric_name: string;
  units: string | null;
  device_type: string;
  category: string;
  description: string | null;
  available: Generated<boolean>;
  default_retention_days: Generated<number>;
}

export interface DeviceMetricSettingsTable {
  id: Generated<number>;
  team_id: number;
  team_supported_device_id: number;
  metric_key: string;
  metric_name: string;
  metric_units: string | null;
  is_enabled: Generated<boolean>;
  retention_days: Generated<number>;
}

export interface TeamStorageSettingsTable {
  id: Generated<number>;
  team_id: number;
  device_type: string;
  metric_key: string;
  metric_name: string;
  units: string | null;
  device_metric_id: number | null;
  is_enabled: Generated<boolean>;
  created_at: Generated<Date>;
}

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
}

/** A limited key's hits in its current fixed window (014, http/shared-limits.ts). */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  expires_at: Timestamp;
}

export interface ParticipantSummariesTable {
  participant_id: number;
  data: Json;
  updated_at: Generated<Date>;
}

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

export interface ContactMessagesTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  email: string;
  subject: string;
  message: string;
  user_id: number | null;
  ip: string | null;
  mail_status: Generated<'pending' | 'sent' | 'failed'>;
  mail_error: string | null;
  created_at: Generated<Date>;
}

export interface AuditChainHeadTable {
  singleton: Generated<boolean>;
  last_seq: string;
  last_hash: string;
}

export interface AuditVerificationsTable {
  id: Generated<number>;
  verified_at: Generated<Date>;
  ok: boolean;
  entries: string;
  head_seq: string;
  head_hash: string;
  first_break: Json | null;
  source: 'cli' | 'job';
}

export interface AuditLogTable {
  id: Generated<string>;
  occurred_at: Generated<Date>;
  user_id: number | null;
  team_id: number | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before: Json | null;
  after: Json | null;
  request_id: string | null;
  ip: string | null;
  // Filled by the audit_log_chain trigger.
  prev_hash: TriggerFilled<string>;
  hash: TriggerFilled<string>;
  chain_seq: TriggerFilled<string>;
}

export interface Database {
  teams: TeamsTable;
  users: UsersTable;
  login_lockouts: LoginLockoutsTable;
  rate_limit_hits: RateLimitHitsTable;
  team_memberships: TeamMembershipsTable;
  sessions: SessionsTable;
  remembered_devices: RememberedDevicesTable;
  email_sfa_codes: EmailSfaCodesTable;
  password_reset_tokens: PasswordResetTokensTable;
  signup_invitations: SignupInvitationsTable;
  participant_accounts: ParticipantAccountsTable;
  participant_sessions: ParticipantSessionsTable;
  trials: TrialsTable;
  trial_users: TrialUsersTable;
  participants: ParticipantsTable;
  participant_devices: ParticipantDevicesTable;
  oauth_states: OAuthStatesTable;
  consent_links: ConsentLinksTable;
  provider_tokens: ProviderTokensTable;
  global_device_catalog: GlobalDeviceCatalogTable;
  team_allowed_brands: TeamAllowedBrandsTable;
  team_supported_devices: TeamSupportedDevicesTable;
  metric_catalog: MetricCatalogTable;
  device_metric_settings: DeviceMetricSettingsTable;
  team_storage_settings: TeamStorageSettingsTable;
  device_readings: DeviceReadingsTable;
  device_sync_state: DeviceSyncStateTable;
  device_sync_cursors: DeviceSyncCursorsTable;
  sync_app_budget: SyncAppBudgetTable;
  participant_summaries: ParticipantSummariesTable;
  export_jobs: ExportJobsTable;
  export_fetch_coverage: ExportFetchCoverageTable;
  contact_messages: ContactMessagesTable;
  audit_log: AuditLogTable;
  audit_chain_head: AuditChainHeadTable;
  audit_verifications: AuditVerificationsTable;
}
