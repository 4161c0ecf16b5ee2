/** SQL of the device health check: the device's reported status and its measured days. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { HealthDay } from '../../providers/sync-types.js';

export async function saveStatus(
  db: Db,
  deviceId: number,
  s: { lastSyncAt: Date | null; batteryLevel: number | null; checkedAt: Date },
) {
  await db
    .insertInto('device_sync_state')
    .values({
      participant_device_id: deviceId,
      provider_last_sync_at: s.lastSyncAt,
      battery_level: s.batteryLevel,
      device_checked_at: s.checkedAt,
    })
    .onConflict((oc) =>
      oc.column('participant_device_id').doUpdateSet({
        provider_last_sync_at: s.lastSyncAt,
        battery_level: s.batteryLevel,
        device_checked_at: s.checkedAt,
      }),
    )
    .execute();
}

/**
 * The measured days, upserted (a re-check replaces a day's measures), with
 * the team's stored metrics that have a value on that day, from the device's
 * readings of those dates, sorted in code-point order (COLLATE "C", as
 * JavaScript sorts; whatever the database's collation): the study-health
 * answer passes them on as stored.
 */
export async function saveDays(
  db: Db,
  device: { id: number; participant_id: number },
  days: readonly HealthDay[],
  now: Date,
) {
  if (days.length === 0) return;
  const dates = days.map((d) => d.date);
  const present = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('device_readings')
        .select(['local_date', 'metric_key'])
        .where('participant_id', '=', device.participant_id)
        .where('participant_device_id', '=', device.id)
        .where('local_date', 'in', dates)
        .where((w) => w.or([w('value', 'is not', null), w('value_json', 'is not', null)]))
        // An intraday metric's day (decision 039) has a value when it holds a sample.
        .unionAll(
          eb
            .selectFrom('intraday_days')
            .select(['local_date', 'metric_key'])
            .where('participant_id', '=', device.participant_id)
            .where('participant_device_id', '=', device.id)
            .where('local_date', 'in', dates)
            .where('value_count', '>', 0),
        )
        .as('x'),
    )
    .select([
      'x.local_date',
      sql<string[]>`array_agg(DISTINCT x.metric_key COLLATE "C" ORDER BY x.metric_key COLLATE "C")`.as(
        'metrics',
      ),
    ])
    .groupBy('x.local_date')
    .execute();
  const metricsOf = new Map(present.map((r) => [String(r.local_date).slice(0, 10), r.metrics]));
  await db
    .insertInto('device_health_days')
    .values(
      days.map((d) => ({
        participant_device_id: device.id,
        participant_id: device.participant_id,
        local_date: d.date,
        wear_minutes: d.wearMinutes ?? null,
        cgm_active_percent: d.cgmActivePercent == null ? null : String(d.cgmActivePercent),
        bp_readings: d.bpReadings ?? null,
        metrics_present: metricsOf.get(d.date) ?? [],
        computed_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['participant_device_id', 'local_date']).doUpdateSet((eb) => ({
        wear_minutes: eb.ref('excluded.wear_minutes'),
        cgm_active_percent: eb.ref('excluded.cgm_active_percent'),
        bp_readings: eb.ref('excluded.bp_readings'),
        metrics_present: eb.ref('excluded.metrics_present'),
        computed_at: eb.ref('excluded.computed_at'),
      })),
    )
    .execute();
}
