/** SQL of Google Health notifications: the links of a Google user, and their sync cursors moved back. */
import type { Db } from '../../db/database.js';

/** Authorized Google Health links of a healthUserId (normally one; the same person in two trials: more). */
export function linksOfHealthUser(db: Db, healthUserId: string) {
  return db
    .selectFrom('participant_devices')
    .select(['id', 'participant_id', 'team_id'])
    .where('provider', '=', 'google_health')
    .where('provider_user_id', '=', healthUserId)
    .where('authorization_status', '=', 'authorized')
    .execute();
}

/**
 * The next sync of these metrics re-reads from `date` (a local date): the
 * cursors past it move back to it; earlier ones (not yet read so far) stay.
 */
export async function rewindCursors(db: Db, deviceId: number, metrics: readonly string[], date: string) {
  if (metrics.length === 0) return 0;
  const r = await db
    .updateTable('device_sync_cursors')
    .set({ cursor_date: date })
    .where('participant_device_id', '=', deviceId)
    .where('metric_key', 'in', metrics)
    .where('cursor_date', '>', date)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
