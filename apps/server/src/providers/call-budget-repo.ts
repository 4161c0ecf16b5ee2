/** SQL of the per-device provider call budget (device_sync_state, 010): one atomic upsert per call. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Counts one provider call of the device in the current clock hour unless
 * `limit` calls were already counted in it; false when the budget is spent.
 * The same counter as the sync's (jobs/device-sync/repo.ts `takeCall`), so
 * the data pages and the sync, on every server and worker, draw on one budget.
 */
export async function takeCall(db: Db, deviceId: number, now: Date, limit: number): Promise<boolean> {
  const res = await sql<{ budget_calls: number }>`
    INSERT INTO device_sync_state AS s (participant_device_id, budget_hour, budget_calls)
    VALUES (${deviceId}, date_trunc('hour', ${now}::timestamptz), 1)
    ON CONFLICT (participant_device_id) DO UPDATE SET
      budget_calls = CASE WHEN s.budget_hour = date_trunc('hour', ${now}::timestamptz) THEN s.budget_calls + 1 ELSE 1 END,
      budget_hour = date_trunc('hour', ${now}::timestamptz)
    WHERE s.budget_hour IS DISTINCT FROM date_trunc('hour', ${now}::timestamptz) OR s.budget_calls < ${limit}
    RETURNING budget_calls`.execute(db);
  return res.rows.length > 0;
}
