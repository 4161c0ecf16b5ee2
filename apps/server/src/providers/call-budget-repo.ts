/** SQL of the per-device provider call budget (device_sync_state, 010 and 015): one atomic upsert per take. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

const HOUR = (now: Date) => sql`date_trunc('hour', ${now}::timestamptz)`;

/**
 * Counts `n` interactive provider calls of the device in the current clock
 * hour, all or none: only while the interactive calls of the hour stay within
 * `interactiveLimit` and all calls of the hour within `totalLimit`. False
 * when they would not: no call may be made.
 */
export async function takeInteractiveCalls(
  db: Db,
  deviceId: number,
  now: Date,
  n: number,
  limits: { interactive: number; total: number },
): Promise<boolean> {
  if (n > limits.interactive || n > limits.total) return false;
  const res = await sql<{ budget_calls: number }>`
    INSERT INTO device_sync_state AS s (participant_device_id, budget_hour, budget_calls, interactive_calls)
    VALUES (${deviceId}, ${HOUR(now)}, ${n}, ${n})
    ON CONFLICT (participant_device_id) DO UPDATE SET
      budget_calls = CASE WHEN s.budget_hour = ${HOUR(now)} THEN s.budget_calls + ${n} ELSE ${n} END,
      interactive_calls = CASE WHEN s.budget_hour = ${HOUR(now)} THEN s.interactive_calls + ${n} ELSE ${n} END,
      budget_hour = ${HOUR(now)}
    WHERE s.budget_hour IS DISTINCT FROM ${HOUR(now)}
       OR (s.interactive_calls + ${n} <= ${limits.interactive} AND s.budget_calls + ${n} <= ${limits.total})
    RETURNING budget_calls`.execute(db);
  return res.rows.length > 0;
}

/**
 * Counts one background call (sync, export fetch) of the device in the
 * current clock hour: only while the hour's background calls (all minus
 * interactive) stay below `backgroundLimit` and all calls below `totalLimit`.
 * The device's state row must exist (the sync ensures it first).
 */
export async function takeBackgroundCall(
  db: Db,
  deviceId: number,
  now: Date,
  limits: { background: number; total: number },
): Promise<boolean> {
  const res = await sql<{ budget_calls: number }>`
    UPDATE device_sync_state SET
      budget_calls = CASE WHEN budget_hour = ${HOUR(now)} THEN budget_calls + 1 ELSE 1 END,
      interactive_calls = CASE WHEN budget_hour = ${HOUR(now)} THEN interactive_calls ELSE 0 END,
      budget_hour = ${HOUR(now)}
    WHERE participant_device_id = ${deviceId}
      AND (budget_hour IS DISTINCT FROM ${HOUR(now)}
        OR (budget_calls - interactive_calls < ${limits.background} AND budget_calls < ${limits.total}))
    RETURNING budget_calls`.execute(db);
  return res.rows.length > 0;
}
