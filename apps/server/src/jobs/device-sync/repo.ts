/** SQL of the background sync: what to sync, readings upserted in batches, cursors, budgets and health. */
import type { LinkProvider } from '@trialwear/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { localTodaySql } from '../../features/readings/local-today.js';
import { upsertReadingsByMetric } from '../../features/readings/repo.js';
import type { Cursor, GroupResult } from '../../providers/sync-types.js';

const BRAND_OF: Record<LinkProvider, string> = {
  fitbit: 'Fitbit',
  google_health: 'Fitbit',
  omron: 'Omron',
  dexcom: 'Dexcom',
};

/** Authorized participant devices (all, or one participant's). */
export function syncableDevices(db: Db, participantId?: number) {
  return db
    .selectFrom('participant_devices')
    .select(['id', 'participant_id', 'team_id', 'provider', 'provider_user_id'])
    .where('authorization_status', '=', 'authorized')
    .$if(participantId !== undefined, (q) => q.where('participant_id', '=', participantId!))
    .orderBy('id')
    .execute();
}

export type SyncDevice = Awaited<ReturnType<typeof syncableDevices>>[number];

/** A team's authorized participant devices (for the syncs a newly stored metric starts). */
export function teamSyncableDevices(db: Db, teamId: number) {
  return db
    .selectFrom('participant_devices')
    .select(['id', 'provider'])
    .where('team_id', '=', teamId)
    .where('authorization_status', '=', 'authorized')
    .orderBy('id')
    .execute();
}

export function findDevice(db: Db, deviceId: number) {
  return db
    .selectFrom('participant_devices')
    .select(['id', 'participant_id', 'team_id', 'provider', 'provider_user_id', 'authorization_status'])
    .where('id', '=', deviceId)
    .executeTakeFirst();
}

/**
 * The metric keys to sync for a link: enabled by the Sys_Admin for one of the
 * team's active devices of the link's brand AND selected by the team for that
 * device type.
 */
export async function metricsFor(db: Db, teamId: number, provider: LinkProvider): Promise<string[]> {
  const rows = await db
    .selectFrom('device_metric_settings as d')
    .innerJoin('team_supported_devices as s', 's.id', 'd.team_supported_device_id')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .innerJoin('team_storage_settings as t', (j) =>
      j
        .onRef('t.team_id', '=', 'd.team_id')
        .onRef('t.device_type', '=', 'g.device_type')
        .onRef('t.metric_key', '=', 'd.metric_key'),
    )
    .select('d.metric_key')
    .distinct()
    .where('d.team_id', '=', teamId)
    .where('d.is_enabled', '=', true)
    .where('s.is_active', '=', true)
    .where('t.is_enabled', '=', true)
    .where('g.manufacturer', '=', BRAND_OF[provider] as 'Fitbit')
    .orderBy('d.metric_key')
    .execute();
  return rows.map((r) => r.metric_key);
}

export async function cursors(db: Db, deviceId: number): Promise<Map<string, Cursor>> {
  const rows = await db
    .selectFrom('device_sync_cursors')
    .select(['metric_key', 'cursor_date', 'cursor_at', 'complete_date'])
    .where('participant_device_id', '=', deviceId)
    .execute();
  return new Map(
    rows.map((r) => [r.metric_key, { date: r.cursor_date, at: r.cursor_at, complete: r.complete_date }]),
  );
}

export interface DeviceRef {
  id: number;
  participant_id: number;
  team_id: number;
  provider: LinkProvider;
}

/**
 * One group's readings in one statement (arrays unnested: one round trip
 * whatever the count) and its cursors, in one transaction. A reading already
 * stored with the same value is left alone; a changed value (today's steps
 * still growing) is updated. Answers the rows inserted or changed (also counted per metric on its cursor).
 */
export async function storeGroup(
  db: Db,
  device: DeviceRef,
  group: GroupResult,
  fetchedAt: Date,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The readings table's one write path (features/readings), inside this group's transaction.
    const changed = await upsertReadingsByMetric(
      trx,
      group.readings.map((x) => ({
        participant_id: device.participant_id,
        team_id: device.team_id,
        metric_key: x.metricKey,
        measured_at: x.measuredAt,
        local_date: x.localDate,
        local_time: x.localTime,
        utc_offset_minutes: x.utcOffsetMinutes,
        value: x.value,
        value_json: x.valueJson,
        participant_device_id: device.id,
        provider: device.provider,
        fetched_at: fetchedAt,
      })),
    );
    for (const metric of group.metrics) {
      const set = {
        ...(group.cursor.date !== undefined ? { cursor_date: group.cursor.date } : {}),
        ...(group.cursor.at !== undefined ? { cursor_at: group.cursor.at } : {}),
        ...(group.cursor.complete !== undefined ? { complete_date: group.cursor.complete } : {}),
        last_success_at: fetchedAt,
      };
      await trx
        .insertInto('device_sync_cursors')
        .values({ participant_device_id: device.id, metric_key: metric, ...set })
        .onConflict((oc) =>
          oc.columns(['participant_device_id', 'metric_key']).doUpdateSet({
            ...set,
            // A cursor only moves forward (a page of older readings never moves it back).
            ...(set.cursor_at
              ? { cursor_at: sql`greatest(device_sync_cursors.cursor_at, excluded.cursor_at)` }
              : {}),
          }),
        )
        .execute();
    }
    for (const [metric, n] of changed)
      await trx
        .updateTable('device_sync_cursors')
        .set({ rows_upserted: sql`rows_upserted + ${n}` })
        .where('participant_device_id', '=', device.id)
        .where('metric_key', '=', metric)
        .execute();
    return [...changed.values()].reduce((a, b) => a + b, 0);
  });
}

export async function ensureState(db: Db, deviceId: number) {
  await db
    .insertInto('device_sync_state')
    .values({ participant_device_id: deviceId })
    .onConflict((oc) => oc.column('participant_device_id').doNothing())
    .execute();
}

export function state(db: Db, deviceId: number) {
  return db
    .selectFrom('device_sync_state')
    .selectAll()
    .where('participant_device_id', '=', deviceId)
    .executeTakeFirst();
}

/**
 * Count one provider call against the provider's budget for the current
 * clock hour across every device (its per-app limit). False when the budget
 * is spent: the call must not be made.
 */
export async function takeAppCall(db: Db, provider: string, now: Date, limit: number): Promise<boolean> {
  const res = await sql<{ budget_calls: number }>`
    INSERT INTO sync_app_budget AS b (provider, budget_hour, budget_calls)
    VALUES (${provider}, date_trunc('hour', ${now}::timestamptz), 1)
    ON CONFLICT (provider) DO UPDATE SET
      budget_calls = CASE WHEN b.budget_hour = excluded.budget_hour THEN b.budget_calls + 1 ELSE 1 END,
      budget_hour = excluded.budget_hour
    WHERE b.budget_hour IS DISTINCT FROM excluded.budget_hour OR b.budget_calls < ${limit}
    RETURNING budget_calls`.execute(db);
  return res.rows.length > 0;
}

export async function recordAttempt(
  db: Db,
  deviceId: number,
  now: Date,
  outcome:
    | { ok: true }
    | { ok: false; error: string; nextAllowedAt?: Date | null; failureStreak?: number; answered?: boolean }
    /** Stopped by a provider limit (budget spent, 429) until then: waiting, not failing (issue #21). */
    | { ok: 'limited'; until: Date },
) {
  await db
    .updateTable('device_sync_state')
    .set(
      outcome.ok === 'limited'
        ? { last_attempt_at: now, next_allowed_at: outcome.until, limited_until: outcome.until }
        : outcome.ok
          ? {
              last_attempt_at: now,
              last_success_at: now,
              last_error: null,
              last_error_at: null,
              failure_streak: 0,
              limited_until: null,
            }
          : {
              last_attempt_at: now,
              limited_until: null,
              last_error: outcome.error.slice(0, 500),
              last_error_at: now,
              ...(outcome.nextAllowedAt !== undefined ? { next_allowed_at: outcome.nextAllowedAt } : {}),
              ...(outcome.failureStreak !== undefined ? { failure_streak: outcome.failureStreak } : {}),
              // The provider answered (a 4xx for one read): its 5xx streak is over.
              ...(outcome.answered ? { failure_streak: 0 } : {}),
            },
    )
    .where('participant_device_id', '=', deviceId)
    .execute();
}

/** A revoked or invalid authorization: the link is errored, so no further sync job is made for it. */
export async function markLinkErrored(db: Db, deviceId: number, now: Date) {
  await db
    .updateTable('participant_devices')
    .set({ authorization_status: 'error', updated_at: now })
    .where('id', '=', deviceId)
    .where('authorization_status', '=', 'authorized')
    .execute();
}

/**
 * Recompute the device's health figures: where the participant's "today" is
 * (`zone`: the IANA zone the provider named, kept only when PostgreSQL knows
 * it; and the newest reading's offset), rows stored, days of the 7 local
 * days ending today with data, newest day with data. Read from
 * `device_reading_days` (015), which triggers on device_readings keep per
 * device and local day from the rows each statement writes or removes: the
 * cost follows the device's days, not its readings. A day has data when it
 * holds a reading that shows wear (`device_reading_worn`: not Fitbit's 0
 * steps and resting burn on days not worn).
 */
export async function refreshHealth(
  db: Db,
  device: { id: number; participant_id: number },
  now: Date,
  zone: string | null,
) {
  const deviceId = device.id;
  await sql`
    UPDATE device_sync_state s SET
      time_zone = CASE
        WHEN ${zone}::text IS NULL OR ${zone}::text IS NOT DISTINCT FROM s.time_zone THEN s.time_zone
        WHEN EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${zone}::text) THEN ${zone}::text
        ELSE s.time_zone END,
      utc_offset_minutes = coalesce((
        SELECT newest_offset_minutes FROM device_reading_days
        WHERE participant_device_id = ${deviceId} AND newest_at IS NOT NULL
        ORDER BY newest_at DESC LIMIT 1), s.utc_offset_minutes)
    WHERE s.participant_device_id = ${deviceId}`.execute(db);
  await sql`
    UPDATE device_sync_state s SET
      rows_stored = h.rows_stored, days_with_data_7d = h.days7, last_data_date = h.last_day
    FROM (
      SELECT coalesce(sum(d.readings), 0)::int AS rows_stored,
        (count(*) FILTER (WHERE d.worn_readings > 0 AND d.local_date BETWEEN t.today - 6 AND t.today))::int AS days7,
        max(d.local_date) FILTER (WHERE d.worn_readings > 0) AS last_day
      FROM (SELECT ${localTodaySql(now, 'st')} AS today FROM device_sync_state st
        WHERE st.participant_device_id = ${deviceId}) t
      LEFT JOIN device_reading_days d ON d.participant_device_id = ${deviceId}
      GROUP BY t.today
    ) h
    WHERE s.participant_device_id = ${deviceId}`.execute(db);
}

export async function deferUntil(db: Db, deviceId: number, at: Date) {
  await db
    .updateTable('device_sync_state')
    .set({ next_allowed_at: at })
    .where('participant_device_id', '=', deviceId)
    .execute();
}
