import type { Brand } from '@trialwear/contract';
import { sql } from 'kysely';
import type { TeamScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';

export function findTeamIdByName(db: Db, name: string) {
  return db
    .selectFrom('teams')
    .select('id')
    .where(sql<string>`lower(team_name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

/**
 * Locks the team's row until the transaction ends and returns its limits.
 * Every write that a team limit counts (trials, participants) takes it first,
 * so concurrent writes of one team run one after another and each counts the
 * rows the previous ones committed: a limit is reached exactly, never passed.
 */
export function lockTeam(db: Db, { teamId }: TeamScope) {
  return db
    .selectFrom('teams')
    .select(['id', 'max_users', 'max_trials', 'max_participants', 'hidden_participant_fields'])
    .where('id', '=', teamId)
    .forUpdate()
    .executeTakeFirst();
}

export function listAllTeams(db: Db) {
  return db.selectFrom('teams').select(['id', 'team_name']).orderBy('team_name').execute();
}

/** The user's teams with the role in each, by team name. */
export function listMemberships(db: Db, userId: number) {
  return db
    .selectFrom('team_memberships as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['m.team_id', 't.team_name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('t.team_name')
    .execute();
}

export async function setLastSelectedTeam(db: Db, userId: number, teamId: number) {
  await db.updateTable('users').set({ last_selected_team_id: teamId }).where('id', '=', userId).execute();
}

export async function insertTeam(
  db: Db,
  t: {
    name: string;
    maxParticipants: number | null;
    maxTrials: number | null;
    maxUsers: number | null;
    retentionDays: number | null;
    hiddenFields: string[] | null;
    organization: string | null;
    subscriptionStarts: string;
  },
) {
  const { id } = await db
    .insertInto('teams')
    .values({
      team_name: t.name,
      max_participants: t.maxParticipants,
      max_trials: t.maxTrials,
      max_users: t.maxUsers,
      retention_days: t.retentionDays,
      hidden_participant_fields: t.hiddenFields,
      organization: t.organization,
      subscription_starts: t.subscriptionStarts,
      subscription_type: 'standard',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function deleteAllowedBrands(db: Db, teamId: number) {
  await db.deleteFrom('team_allowed_brands').where('team_id', '=', teamId).execute();
}

export async function insertAllowedBrands(db: Db, teamId: number, brands: readonly Brand[]) {
  if (!brands.length) return;
  await db
    .insertInto('team_allowed_brands')
    .values(brands.map((brand_name) => ({ team_id: teamId, brand_name })))
    .execute();
}

export function listCatalogDevices(db: Db) {
  return db.selectFrom('global_device_catalog').select(['id', 'manufacturer']).execute();
}

/** Adds the catalog device to the team's supported devices, or sets whether it is active. */
export async function upsertSupportedDevice(db: Db, teamId: number, deviceId: number, active: boolean) {
  await db
    .insertInto('team_supported_devices')
    .values({ team_id: teamId, global_device_catalog_id: deviceId, is_active: active })
    .onConflict((oc) =>
      oc.columns(['team_id', 'global_device_catalog_id']).doUpdateSet({ is_active: active }),
    )
    .execute();
}

export async function insertSupportedDevices(db: Db, teamId: number, deviceIds: number[]) {
  if (!deviceIds.length) return;
  await db
    .insertInto('team_supported_devices')
    .values(deviceIds.map((id) => ({ team_id: teamId, global_device_catalog_id: id })))
    .execute();
}
