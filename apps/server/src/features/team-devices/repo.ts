/** SQL of a team's device configuration: allowed brands and supported catalog devices. */
import type { TeamScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';

export function activeAllowedBrands(db: Db, { teamId }: TeamScope) {
  return db
    .selectFrom('team_allowed_brands')
    .select('brand_name')
    .where('team_id', '=', teamId)
    .where('is_active', '=', true)
    .orderBy('brand_name')
    .execute();
}

export function supportedDevices(db: Db, { teamId }: TeamScope) {
  return db
    .selectFrom('team_supported_devices as s')
    .innerJoin('global_device_catalog as g', 'g.id', 's.global_device_catalog_id')
    .select([
      's.id',
      's.team_id',
      's.global_device_catalog_id',
      'g.device_name',
      'g.device_type',
      'g.manufacturer',
      's.is_active',
      's.notes',
    ])
    .where('s.team_id', '=', teamId)
    .orderBy('g.manufacturer')
    .orderBy('g.device_name')
    .execute();
}
