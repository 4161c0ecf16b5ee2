/*
 * Append-only audit log. The hash chain and the ban on UPDATE/DELETE are
 * enforced by triggers in the database; this module only inserts.
 */
import type { Db } from '../db/database.js';

export interface AuditEntry {
  userId: number | null;
  teamId: number | null;
  action: string;
  entityType: string;
  entityId: string | number | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
  ip?: string | null;
}

const auditRow = (entry: AuditEntry) => ({
  user_id: entry.userId,
  team_id: entry.teamId,
  action: entry.action,
  entity_type: entry.entityType,
  entity_id: entry.entityId === null ? null : String(entry.entityId),
  before: entry.before === undefined ? null : JSON.stringify(entry.before),
  after: entry.after === undefined ? null : JSON.stringify(entry.after),
  request_id: entry.requestId ?? null,
  ip: entry.ip ?? null,
});

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insertInto('audit_log').values(auditRow(entry)).execute();
}

/** Rows per INSERT of recordAudits: 9 parameters a row, well under PostgreSQL's 65,535. */
const AUDIT_BATCH = 1000;

/**
 * Many entries in a few statements (in the given order; the chain trigger
 * still links them row by row): a job's hundreds of changes in one round trip
 * each thousand instead of one each.
 */
export async function recordAudits(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += AUDIT_BATCH)
    await db
      .insertInto('audit_log')
      .values(entries.slice(i, i + AUDIT_BATCH).map(auditRow))
      .execute();
}

/** An entry written on behalf of the session's actor (user, team, request id, IP). */
export function recordActorAudit(
  db: Db,
  actor: { userId: number; teamId: number; requestId: string; ip: string },
  entry: { action: string; entityType: string; entityId: string | number; before?: unknown; after?: unknown },
) {
  return recordAudit(db, {
    userId: actor.userId,
    teamId: actor.teamId,
    requestId: actor.requestId,
    ip: actor.ip,
    ...entry,
  });
}
