/*
 * Makes the audit insert of one action fail in a test's own database, to
 * show that a write and its audit row stand or fall together.
 */
import { sql } from 'kysely';
import type { TestApp } from './test-app.js';

/** Until the returned function runs, every audit row with this action is refused. */
export async function failAuditOf(t: TestApp, action: string): Promise<() => Promise<void>> {
  await sql`
    CREATE OR REPLACE FUNCTION tw_test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.action = TG_ARGV[0] THEN RAISE EXCEPTION 'audit insert refused by the test'; END IF;
      RETURN NEW;
    END $$`.execute(t.ctx.db);
  await sql`
    CREATE TRIGGER tw_test_refuse_audit BEFORE INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION tw_test_refuse_audit(${sql.lit(action)})`.execute(t.ctx.db);
  return async () => {
    await sql`DROP TRIGGER tw_test_refuse_audit ON audit_log`.execute(t.ctx.db);
  };
}
