/** The lookups behind the scope rules: does the object exist inside what the actor may see? */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { TrialsScope } from './scope.js';
import { trialIdInScope, trialInScope } from './trial-visibility.js';

export function findTrialInScope(db: Db, scope: TrialsScope, trialId: number) {
  return db
    .selectFrom('trials as t')
    .select(['t.id', 't.team_id'])
    .where(trialInScope(scope))
    .where('t.id', '=', trialId)
    .executeTakeFirst();
}

/** `forUpdate` row-locks the participant until the transaction ends (an edit racing a delete finds it gone). */
export function findParticipantInScope(
  db: Db,
  scope: TrialsScope,
  participantId: number,
  forUpdate: boolean,
) {
  let q = db
    .selectFrom('participants as p')
    .select(['p.id', 'p.trial_id'])
    .where('p.team_id', '=', scope.teamId)
    .where('p.id', '=', participantId)
    .where(trialIdInScope('p.trial_id', scope));
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** A job of the team whose trial is in the scope (an all-trials scope also sees a job without a trial). */
export function findExportJobInScope(db: Db, scope: TrialsScope, jobId: string) {
  return db
    .selectFrom('export_jobs as j')
    .select(['j.id', 'j.trial_id'])
    .where('j.team_id', '=', scope.teamId)
    .where('j.id', '=', jobId)
    .where(scope.trialUserId === null ? sql<boolean>`true` : trialIdInScope('j.trial_id', scope))
    .executeTakeFirst();
}

/** A study-health alert of the team whose trial is in the scope. */
export function findHealthAlertInScope(db: Db, scope: TrialsScope, alertId: number) {
  return db
    .selectFrom('health_alerts as a')
    .select(['a.id', 'a.trial_id'])
    .where('a.team_id', '=', scope.teamId)
    .where('a.id', '=', alertId)
    .where(trialIdInScope('a.trial_id', scope))
    .executeTakeFirst();
}

/** A participant by id alone: only for a grant already verified (`participantByGrant`). */
export function findParticipantById(db: Db, participantId: number) {
  return db
    .selectFrom('participants')
    .select(['id', 'team_id', 'trial_id'])
    .where('id', '=', participantId)
    .executeTakeFirst();
}
