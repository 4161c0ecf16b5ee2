import { type Role, roleAllows } from '@trialwear/contract';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema/index.js';
import { inTransaction } from '../../db/transaction.js';

/** Roles that see every trial of the team; the others see the trials `visibleTo` them. */
export const ALL_TEAM_TRIALS: readonly Role[] = ['Sys_Admin', 'Admin'];

/**
 * Trials the caller may see in the team (design §5): Sys_Admin and Admin see
 * all of the team's trials, User and Viewer the ones they are trial users of.
 */
export function visibleTrials(db: Db, teamId: number, userId: number, role: Role) {
  let q = db
    .selectFrom('trials as t')
    .leftJoin('users as o', 'o.id', 't.owner_user_id')
    .select([
      't.id',
      't.trial_number',
      't.trial_name',
      't.trial_notes',
      't.trial_code',
      't.creation_date',
      't.owner_user_id',
      'o.email as owner_email',
      sql<number>`(SELECT count(*) FROM participants p WHERE p.trial_id = t.id)::int`.as('participant_count'),
    ])
    .where('t.team_id', '=', teamId);
  if (!roleAllows(role, ALL_TEAM_TRIALS)) q = q.where(visibleTo(userId));
  return q;
}

/** User and Viewer: trials they own or are trial users of (on a query of `trials as t`). */
export const visibleTo = (userId: number) => (eb: ExpressionBuilder<TrialsAsT, 't'>) =>
  eb.or([
    eb('t.owner_user_id', '=', userId),
    eb.exists(
      eb
        .selectFrom('trial_users as tu')
        .select('tu.trial_id')
        .whereRef('tu.trial_id', '=', 't.id')
        .where('tu.user_id', '=', userId),
    ),
  ]);
type TrialsAsT = Database & { t: Database['trials'] };

export type TrialRow = Awaited<ReturnType<ReturnType<typeof visibleTrials>['executeTakeFirstOrThrow']>>;

export function listVisibleTrials(db: Db, teamId: number, userId: number, role: Role) {
  return visibleTrials(db, teamId, userId, role)
    .orderBy('t.creation_date', 'desc')
    .orderBy('t.id', 'desc')
    .execute();
}

export function findVisibleTrial(db: Db, teamId: number, userId: number, role: Role, trialId: number) {
  return visibleTrials(db, teamId, userId, role).where('t.id', '=', trialId).executeTakeFirst();
}

export async function countTeamTrials(db: Db, teamId: number) {
  const r = await db
    .selectFrom('trials')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function findTrialByNumber(db: Db, teamId: number, trialNumber: string) {
  return db
    .selectFrom('trials')
    .select('id')
    .where('team_id', '=', teamId)
    .where(sql<string>`lower(trial_number)`, '=', trialNumber.toLowerCase())
    .executeTakeFirst();
}

export async function trialCodeExists(db: Db, teamId: number, code: string) {
  return !!(await db
    .selectFrom('trials')
    .select('id')
    .where('team_id', '=', teamId)
    .where('trial_code', '=', code)
    .executeTakeFirst());
}

/** The trial and its owner as its first trial user (design §5), together. */
export async function insertTrial(
  db: Db,
  t: { teamId: number; number: string; name: string; notes: string; code: string; ownerId: number },
) {
  return inTransaction({ db }, async ({ db: trx }) => {
    const { id } = await trx
      .insertInto('trials')
      .values({
        team_id: t.teamId,
        trial_number: t.number,
        trial_name: t.name,
        trial_notes: t.notes,
        trial_code: t.code,
        owner_user_id: t.ownerId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('trial_users').values({ trial_id: id, user_id: t.ownerId }).execute();
    return id;
  });
}

export async function updateTrial(
  db: Db,
  teamId: number,
  trialId: number,
  t: { number: string; name: string; notes: string },
) {
  await db
    .updateTable('trials')
    .set({ trial_number: t.number, trial_name: t.name, trial_notes: t.notes, updated_at: new Date() })
    .where('id', '=', trialId)
    .where('team_id', '=', teamId)
    .execute();
}

export async function deleteTrial(db: Db, teamId: number, trialId: number) {
  await db.deleteFrom('trials').where('id', '=', trialId).where('team_id', '=', teamId).execute();
}
