/** SQL of the metric catalog and of a team device's metric settings (device metrics manager). */
import type { TeamScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';

const catalogColumns = [
  'id',
  'metric_key',
  'metric_name',
  'units',
  'device_type',
  'category',
  'description',
  'available',
  'default_retention_days',
] as const;

export function catalogOfType(db: Db, deviceType: string) {
  return db
    .selectFrom('metric_catalog')
    .select(catalogColumns)
    .where('device_type', '=', deviceType)
    .orderBy('category')
    .orderBy('id')
    .execute();
}

export function wholeCatalog(db: Db) {
  return db
    .selectFrom('metric_catalog')
    .select(catalogColumns)
    .orderBy('device_type')
    .orderBy('category')
    .orderBy('id')
    .execute();
}

/** The catalog keys among these (to refuse a key the catalog does not know). */
export async function knownKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db
    .selectFrom('metric_catalog')
    .select('metric_key')
    .distinct()
    .where('metric_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.metric_key));
}

/** The team's supported device with its catalog type; undefined when it is not the team's. */
export function findTeamDevice(db: Db, { teamId }: TeamScope, deviceId: number) {
  return db
    .selectFrom('team_supported_devices as s')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .select(['s.id', 'g.device_name', 'g.device_type'])
    .where('s.team_id', '=', teamId)
    .where('s.id', '=', deviceId)
    .executeTakeFirst();
}

/** The device's settings; with `lock`, row-locks the device first so concurrent PUTs replace one after another. */
export function settingsOf(db: Db, deviceId: number) {
  return db
    .selectFrom('device_metric_settings')
    .select(['id', 'metric_key', 'metric_name', 'metric_units', 'is_enabled', 'retention_days'])
    .where('team_supported_device_id', '=', deviceId)
    .orderBy('id')
    .execute();
}

export function lockDevice(db: Db, deviceId: number) {
  return db
    .selectFrom('team_supported_devices')
    .select('id')
    .where('id', '=', deviceId)
    .forUpdate()
    .executeTakeFirst();
}

export function deleteSettings(db: Db, deviceId: number) {
  return db.deleteFrom('device_metric_settings').where('team_supported_device_id', '=', deviceId).execute();
}

export async function insertSettings(
  db: Db,
  { teamId }: TeamScope,
  deviceId: number,
  rows: Array<{
    metric_key: string;
    metric_name: string;
    metric_units: string | null;
    is_enabled: boolean;
    retention_days: number;
  }>,
) {
  if (!rows.length) return;
  await db
    .insertInto('device_metric_settings')
    .values(rows.map((r) => ({ ...r, team_id: teamId, team_supported_device_id: deviceId })))
    .execute();
}
