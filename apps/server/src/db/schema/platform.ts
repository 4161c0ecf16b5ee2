/*
 * Kysely table types (see index.ts): Shared request limits, contact messages
 * and the audit trail with its hash chain.
 */
import type { Generated } from 'kysely';
import type { Json, Timestamp, TriggerFilled } from './columns.js';

/** A limited key's hits in its current fixed window (014, http/shared-limits.ts). */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  expires_at: Timestamp;
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
