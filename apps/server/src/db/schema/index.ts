/*
 * Kysely table types for the SQL in migrations/: every table and column, one
 * file per area, gathered here into the Database interface every query
 * compiles against. Kept by hand (not generated) so that they carry what the
 * database enforces only with CHECK constraints — the literal unions of
 * providers, statuses and roles. test/platform/schema-drift.int.test.ts fails
 * when they drift from the migrated database.
 */

import type { ExportFetchCoverageTable, ExportJobsTable } from './data-export.js';
import type {
  ConsentLinksTable,
  DeviceMetricSettingsTable,
  GlobalDeviceCatalogTable,
  MetricCatalogTable,
  OAuthStatesTable,
  ParticipantDevicesTable,
  ProviderTokensTable,
  TeamAllowedBrandsTable,
  TeamStorageSettingsTable,
  TeamSupportedDevicesTable,
} from './devices.js';
import type {
  EmailSfaCodesTable,
  LoginLockoutsTable,
  ParticipantAccountsTable,
  ParticipantSessionsTable,
  PasswordResetTokensTable,
  RememberedDevicesTable,
  SessionsTable,
  SignupInvitationsTable,
  TeamMembershipsTable,
  TeamsTable,
  UsersTable,
} from './identity.js';
import type {
  AuditChainHeadTable,
  AuditLogTable,
  AuditVerificationsTable,
  ContactMessagesTable,
  RateLimitHitsTable,
} from './platform.js';
import type {
  DeviceReadingDaysTable,
  DeviceReadingsTable,
  DeviceSyncCursorsTable,
  DeviceSyncStateTable,
  IntradayDaysTable,
  ParticipantSummariesTable,
  SyncAppBudgetTable,
} from './readings.js';
import type { RedcapPushLogTable, RedcapSettingsTable } from './redcap.js';
import type {
  DeviceHealthDaysTable,
  HealthAlertMailsTable,
  HealthAlertsTable,
  HealthDigestSubscriptionsTable,
  HealthDigestsSentTable,
  TrialHealthRulesTable,
} from './study-health.js';
import type { ParticipantsTable, TrialsTable, TrialUsersTable } from './trials.js';

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
  intraday_days: IntradayDaysTable;
  device_sync_state: DeviceSyncStateTable;
  device_reading_days: DeviceReadingDaysTable;
  device_sync_cursors: DeviceSyncCursorsTable;
  sync_app_budget: SyncAppBudgetTable;
  participant_summaries: ParticipantSummariesTable;
  export_jobs: ExportJobsTable;
  export_fetch_coverage: ExportFetchCoverageTable;
  contact_messages: ContactMessagesTable;
  audit_log: AuditLogTable;
  audit_chain_head: AuditChainHeadTable;
  audit_verifications: AuditVerificationsTable;
  device_health_days: DeviceHealthDaysTable;
  trial_health_rules: TrialHealthRulesTable;
  health_alerts: HealthAlertsTable;
  health_digest_subscriptions: HealthDigestSubscriptionsTable;
  health_digests_sent: HealthDigestsSentTable;
  health_alert_mails: HealthAlertMailsTable;
  redcap_settings: RedcapSettingsTable;
  redcap_push_log: RedcapPushLogTable;
}
