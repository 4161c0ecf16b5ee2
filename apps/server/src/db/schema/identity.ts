/*
 * Kysely table types (see index.ts): Teams, staff users and their sign-in
 * (sessions, remembered devices, second-factor codes, reset tokens,
 * lockouts, sign-up invitations), and participant accounts and sessions.
 */
import type { Role } from '@trialwear/contract';
import type { Generated } from 'kysely';
import type { DateOnly, Timestamp } from './columns.js';

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
