/*
 * Makes the audit insert of one action fail in a test's own database, to
 * show that a write and its audit row stand or fall together.
 */
import type { TestApp } from './test-app.js';

/**
 * Until the returned function runs, every audit row with this action is
 * refused. Set up as the owner role: the application role may not create
 * triggers on the audit log.
 */
export async function failAuditOf(t: TestApp, action: string): Promise<() => Promise<void>> {
  const owner = await t.connectAs('owner');
  try {
    await owner.query(`
      CREATE OR REPLACE FUNCTION tw_test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = TG_ARGV[0] THEN RAISE EXCEPTION 'audit insert refused by the test'; END IF;
        RETURN NEW;
      END $$`);
    await owner.query(
      `CREATE TRIGGER tw_test_refuse_audit BEFORE INSERT ON audit_log
       FOR EACH ROW EXECUTE FUNCTION tw_test_refuse_audit(${owner.escapeLiteral(action)})`,
    );
  } finally {
    await owner.end();
  }
  return async () => {
    const c = await t.connectAs('owner');
    try {
      await c.query('DROP TRIGGER tw_test_refuse_audit ON audit_log');
    } finally {
      await c.end();
    }
  };
}
