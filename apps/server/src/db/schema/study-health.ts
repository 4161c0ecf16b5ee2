/*
 * Kysely table types (see index.ts): study health (017) — the daily wear and
 * completeness per device, each trial's rules, the alerts they raise, the
 * digest's opt-ins and the digests sent; their mail queue (018).
 */
import type { HealthRuleKey } from '@trialwear/contract';
import type { ColumnType, Generated } from 'kysely';
import type { DateOnly, Json, Timestamp } from './columns.js';

/** Per participant device and participant-local day; a null measure is "no data", not 0. */
export interface DeviceHealthDaysTable {
  participant_device_id: number;
  participant_id: number;
  local_date: DateOnly;
  wear_minutes: number | null;
  /** numeric(5,2), which node-postgres answers as text. */
  cgm_active_percent: string | null;
  bp_readings: number | null;
  /** A set, sorted in code-point order (migration 020's trigger makes it so on every write). */
  metrics_present: Generated<string[]>;
  /** metrics_present as JSON text, written by the same trigger (the study-health answer's). */
  metrics_json: Generated<string>;
  computed_at: Generated<Date>;
}

/** A trial's rules (the contract's rules without the zone, as JSON); no row means the defaults. */
export interface TrialHealthRulesTable {
  trial_id: number;
  timezone: string;
  rules: Json;
  updated_at: Generated<Date>;
  updated_by: number | null;
}

export interface HealthAlertsTable {
  id: Generated<number>;
  team_id: number;
  trial_id: number;
  participant_id: number;
  rule_key: HealthRuleKey;
  opened_at: Generated<Date>;
  closed_at: Timestamp | null;
  acknowledged_at: Timestamp | null;
  acknowledged_by: number | null;
  note: string | null;
  /** jsonb with a default: read parsed, written as JSON text or left out. */
  detail: ColumnType<unknown, string | undefined, string>;
}

export interface HealthDigestSubscriptionsTable {
  trial_id: number;
  user_id: number;
  digest: boolean;
  updated_at: Generated<Date>;
}

/** One digest per trial, trial-local day and recipient (the later digest job claims it before sending). */
export interface HealthDigestsSentTable {
  trial_id: number;
  local_date: DateOnly;
  user_id: number;
  alert_ids: Generated<number[]>;
  sent_at: Generated<Date>;
  /** The alerts new since the recipient's previous digest (018). */
  new_alert_ids: Generated<number[]>;
  /** When its mail went out; null: not yet, or nothing to send (no alerts). */
  mailed_at: Timestamp | null;
  /** Failed tries of its mail, the last one's error, and when it was given up (019). */
  attempts: Generated<number>;
  last_error: string | null;
  given_up_at: Timestamp | null;
}

/** The immediate e-mail of an opened linkError alert, per recipient, queued with the opening (018). */
export interface HealthAlertMailsTable {
  alert_id: number;
  user_id: number;
  queued_at: Generated<Date>;
  mailed_at: Timestamp | null;
  /** Failed tries of its mail, the last one's error, and when it was given up (019). */
  attempts: Generated<number>;
  last_error: string | null;
  given_up_at: Timestamp | null;
}
