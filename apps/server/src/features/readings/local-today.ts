/*
 * A participant device's local "today" in SQL, for sync health ('No data for
 * 3 days', days of the last 7 with data): a reading's local_date is the
 * participant's date, so "today" must be theirs too, not the server's UTC
 * date. From device_sync_state: the IANA zone when the provider names one
 * (Fitbit's profile; stored only when PostgreSQL knows it), otherwise the
 * offset of the newest reading (Omron and Dexcom give offsets), otherwise UTC.
 */
import { type RawBuilder, sql } from 'kysely';

/** `now` (a Date or an ISO text parameter) as a local date, for the device_sync_state row `alias`. */
export function localTodaySql(now: Date | string, alias: string): RawBuilder<string> {
  const zone = sql.ref(`${alias}.time_zone`);
  const offset = sql.ref(`${alias}.utc_offset_minutes`);
  const at = sql`${typeof now === 'string' ? now : now.toISOString()}::timestamptz`;
  return sql<string>`(CASE WHEN ${zone} IS NOT NULL THEN (${at} AT TIME ZONE ${zone})::date
    ELSE ((${at} AT TIME ZONE 'UTC') + coalesce(${offset}, 0) * interval '1 minute')::date END)`;
}
