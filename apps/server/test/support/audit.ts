/*
 * Reading the audit log in tests.
 */
import type { Db } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema/index.js';

type AuditColumn = keyof Database['audit_log'] & string;

/** The audit rows of one action, oldest first, with the given columns. */
export function auditRows<C extends AuditColumn>(db: Db, action: string, columns: readonly C[]) {
  return db.selectFrom('audit_log').select(columns).where('action', '=', action).orderBy('id').execute();
}
