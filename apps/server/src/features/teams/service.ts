import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';

export const BRANDS = ['Fitbit', 'Omron', 'Dexcom'] as const;
export const HIDDEN_FIELDS = ['email', 'notes'] as const;

export const newTeamSchema = z.object({
  name: z.string().trim().min(1, 'Team name is required').max(100),
  maxParticipants: z.number().int().min(0).optional(),
  maxTrials: z.number().int().min(0).optional(),
  maxUsers: z.number().int().min(0).optional(),
  retentionDays: z.number().int().min(1, 'Retention days must be at least 1').optional(),
  allowedBrands: z.array(z.enum(BRANDS)).default([...BRANDS]),
  /** undefined = unknown = both hidden (spec); [] = none hidden. */
  hiddenFields: z.array(z.enum(HIDDEN_FIELDS)).optional(),
  organization: z.string().optional(),
});
export type NewTeam = z.input<typeof newTeamSchema>;

/** Creates a team with its allowed brands and the catalog devices of those brands as supported devices. */
export async function createTeam(db: Db, input: NewTeam): Promise<number> {
  const t = newTeamSchema.parse(input);
  const existing = await db
    .selectFrom('teams')
    .select('id')
    .where(sql<string>`lower(team_name)`, '=', t.name.toLowerCase())
    .executeTakeFirst();
  if (existing)
    throw new AppError(409, `A team named "${t.name}" already exists`, 'Conflict', { displayToUser: true });
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('teams')
      .values({
        team_name: t.name,
        max_participants: t.maxParticipants ?? null,
        max_trials: t.maxTrials ?? null,
        max_users: t.maxUsers ?? null,
        retention_days: t.retentionDays ?? null,
        hidden_participant_fields: t.hiddenFields ?? null,
        organization: t.organization ?? null,
        subscription_starts: new Date().toISOString().slice(0, 10),
        subscription_type: 'standard',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (t.allowedBrands.length) {
      await trx
        .insertInto('team_allowed_brands')
        .values(t.allowedBrands.map((brand_name) => ({ team_id: id, brand_name })))
        .execute();
      const devices = await trx
        .selectFrom('global_device_catalog')
        .select('id')
        .where('manufacturer', 'in', t.allowedBrands)
        .execute();
      if (devices.length) {
        await trx
          .insertInto('team_supported_devices')
          .values(devices.map((d) => ({ team_id: id, global_device_catalog_id: d.id })))
          .execute();
      }
    }
    return id;
  });
}

export async function findTeamIdByName(db: Db, name: string): Promise<number> {
  const team = await db
    .selectFrom('teams')
    .select('id')
    .where(sql<string>`lower(team_name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  if (!team) throw new AppError(404, `No team named "${name}"`, 'NotFound', { displayToUser: true });
  return team.id;
}

/**
 * Replaces a team's allowed brands; the catalog devices of the brands kept or
 * added become (or stay) supported, those of removed brands are deactivated
 * (not deleted: participant links and storage settings may refer to them).
 */
export async function setAllowedBrands(db: Db, teamId: number, brands: Array<(typeof BRANDS)[number]>) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('team_allowed_brands').where('team_id', '=', teamId).execute();
    if (brands.length) {
      await trx
        .insertInto('team_allowed_brands')
        .values(brands.map((brand_name) => ({ team_id: teamId, brand_name })))
        .execute();
    }
    const catalog = await trx.selectFrom('global_device_catalog').select(['id', 'manufacturer']).execute();
    for (const device of catalog) {
      const active = brands.includes(device.manufacturer);
      await trx
        .insertInto('team_supported_devices')
        .values({ team_id: teamId, global_device_catalog_id: device.id, is_active: active })
        .onConflict((oc) =>
          oc.columns(['team_id', 'global_device_catalog_id']).doUpdateSet({ is_active: active }),
        )
        .execute();
    }
  });
}
