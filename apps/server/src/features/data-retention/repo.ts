/** SQL of a team's data storage: its devices, retention, the metrics it may store and its selections. */
import { sql } from 'kysely';
import type { TeamScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { effectiveRetentionDays } from './effective-retention.js';

export function teamDevices(db: Db, { teamId }: TeamScope) {
  return db
    .selectFrom('team_supported_devices as s')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .select(['s.id as team_supported_device_id', 'g.device_name', 'g.device_type'])
    .where('s.team_id', '=', teamId)
    .where('s.is_active', '=', true)
    .orderBy('g.manufacturer')
    .orderBy('g.device_name')
    .execute();
}

export function teamRetention(db: Db, { teamId }: TeamScope) {
  return db.selectFrom('teams').select('retention_days').where('id', '=', teamId).executeTakeFirst();
}

export async function hasDeviceType(db: Db, { teamId }: TeamScope, deviceType: string): Promise<boolean> {
  const row = await db
    .selectFrom('team_supported_devices as s')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .select('s.id')
    .where('s.team_id', '=', teamId)
    .where('s.is_active', '=', true)
    .where('g.device_type', '=', deviceType)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The metrics a Sys_Admin enabled for any of the team's active devices of this
 * type, one row per key, with the catalog's id, category and description
 * (the catalog row of the same type first, else any with that key), and how
 * long the team keeps its readings (the purge's rule).
 */
export function enabledMetrics(db: Db, { teamId }: TeamScope, deviceType: string, metricKey?: string) {
  return db
    .selectFrom('device_metric_settings as d')
    .innerJoin('team_supported_devices as s', 's.id', 'd.team_supported_device_id')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .leftJoin('metric_catalog as c', 'c.metric_key', 'd.metric_key')
    .innerJoin('teams as t', 't.id', 'd.team_id')
    .distinctOn('d.metric_key')
    .select([
      'c.id',
      'd.metric_key',
      'd.metric_name',
      'd.metric_units as units',
      'c.category',
      'c.description',
      effectiveRetentionDays(sql.ref('d.team_id'), sql.ref('t.retention_days'), sql.ref('d.metric_key')).as(
        'retention_days',
      ),
    ])
    .where('d.team_id', '=', teamId)
    .where('d.is_enabled', '=', true)
    .where('s.is_active', '=', true)
    .where('g.device_type', '=', deviceType)
    .$if(metricKey !== undefined, (q) => q.where('d.metric_key', '=', metricKey!))
    .orderBy('d.metric_key')
    .orderBy(sql`c.device_type = ${deviceType}`, 'desc')
    .orderBy('c.id')
    .execute();
}

export function selections(db: Db, { teamId }: TeamScope, deviceType: string) {
  return db
    .selectFrom('team_storage_settings')
    .select(['metric_key', 'is_enabled'])
    .where('team_id', '=', teamId)
    .where('device_type', '=', deviceType)
    .orderBy('metric_key')
    .execute();
}

/** Stores the metric for the team (enabled), whether or not it was selected before; true when it changed. */
export async function upsertSelection(
  db: Db,
  { teamId }: TeamScope,
  row: {
    device_type: string;
    metric_key: string;
    metric_name: string;
    units: string | null;
    device_metric_id: number | null;
  },
): Promise<boolean> {
  const res = await db
    .insertInto('team_storage_settings')
    .values({ ...row, team_id: teamId, is_enabled: true })
    .onConflict((oc) =>
      oc
        .columns(['team_id', 'device_type', 'metric_key'])
        .doUpdateSet({ is_enabled: true, metric_name: row.metric_name, units: row.units })
        .where('team_storage_settings.is_enabled', '=', false),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteSelection(db: Db, { teamId }: TeamScope, deviceType: string, metricKey: string) {
  const res = await db
    .deleteFrom('team_storage_settings')
    .where('team_id', '=', teamId)
    .where('device_type', '=', deviceType)
    .where('metric_key', '=', metricKey)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
