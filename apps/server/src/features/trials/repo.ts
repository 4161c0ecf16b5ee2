import { sql } from 'kysely';
import { type TeamScope, type TrialScope, type TrialsScope, trialInScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';

/** Trials with their owner and participant count. */
function selectTrials(db: Db) {
  return db
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
    ]);
}

/** The trials in the scope (design §5's visibility rule is `access/`'s `trialInScope`). */
export function trialsInScope(db: Db, scope: TrialsScope) {
  return selectTrials(db).where(trialInScope(scope));
}

export type TrialRow = Awaited<ReturnType<ReturnType<typeof trialsInScope>['executeTakeFirstOrThrow']>>;

export function listTrialsInScope(db: Db, scope: TrialsScope) {
  return trialsInScope(db, scope).orderBy('t.creation_date', 'desc').orderBy('t.id', 'desc').execute();
}

/** The trial of a checked scope (undefined only if it was deleted since the check). */
export function findTrial(db: Db, { teamId, trialId }: TrialScope) {
  return selectTrials(db).where('t.team_id', '=', teamId).where('t.id', '=', trialId).executeTakeFirst();
}

export async function countTeamTrials(db: Db, { teamId }: TeamScope) {
  const r = await db
    .selectFrom('trials')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function findTrialByNumber(db: Db, { teamId }: TeamScope, trialNumber: string) {
  return db
    .selectFrom('trials')
    .select('id')
    .where('team_id', '=', teamId)
    .where(sql<string>`lower(trial_number)`, '=', trialNumber.toLowerCase())
    .executeTakeFirst();
}

export async function trialCodeExists(db: Db, { teamId }: TeamScope, code: string) {
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
  { teamId }: TeamScope,
  t: { number: string; name: string; notes: string; code: string; ownerId: number },
) {
  return inTransaction({ db }, async ({ db: trx }) => {
    const { id } = await trx
      .insertInto('trials')
      .values({
        team_id: teamId,
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
  { teamId, trialId }: TrialScope,
  t: { number: string; name: string; notes: string },
) {
  await db
    .updateTable('trials')
    .set({ trial_number: t.number, trial_name: t.name, trial_notes: t.notes, updated_at: new Date() })
    .where('id', '=', trialId)
    .where('team_id', '=', teamId)
    .execute();
}

export async function deleteTrial(db: Db, { teamId, trialId }: TrialScope) {
  await db.deleteFrom('trials').where('id', '=', trialId).where('team_id', '=', teamId).execute();
}
