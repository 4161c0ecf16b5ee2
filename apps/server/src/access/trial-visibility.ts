/*
 * The one statement of who sees which trial (design §5), as SQL fragments
 * the repos put into their queries: Sys_Admin and Admin see every trial of
 * their team; User and Viewer the trials they own or are trial users of. A
 * repo never writes this rule itself: it is handed a `TrialsScope` and asks
 * here for the filter.
 */
import { type Role, roleAllows } from '@trialwear/contract';
import { type ExpressionBuilder, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema/index.js';
import type { Actor } from './actor.js';
import { mintScope, type TrialScope, type TrialsScope } from './scope.js';

/** Roles that see every trial of the team; the others see the trials they are trial users of. */
export const ALL_TEAM_TRIALS: readonly Role[] = ['Sys_Admin', 'Admin'];

/** The trials of the session's team the actor sees. */
export function visibleTrials(actor: Pick<Actor, 'teamId' | 'userId' | 'role'>): TrialsScope {
  return mintScope<TrialsScope>({
    teamId: actor.teamId,
    trialUserId: roleAllows(actor.role, ALL_TEAM_TRIALS) ? null : actor.userId,
  });
}

type TrialsAsT = Database & { t: Database['trials'] };

/** On a query of `trials as t`: the team's trials in the scope. */
export const trialInScope = (scope: TrialsScope) => (eb: ExpressionBuilder<TrialsAsT, 't'>) => {
  const inTeam = eb('t.team_id', '=', scope.teamId);
  return scope.trialUserId === null ? inTeam : eb.and([inTeam, ownedOrTrialUser(scope.trialUserId)(eb)]);
};

/**
 * On a query of `trials as t`: the trials this user owns or is a trial user
 * of. Only for a query that applies `trialInScope`'s rule itself because it
 * is built once per shape (`db/cached-query.ts`): its shape is `scope.trialUserId
 * === null`, and the user id a parameter.
 */
export const ownedOrTrialUser = (userId: number) => (eb: ExpressionBuilder<TrialsAsT, 't'>) =>
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

/**
 * `<column> IN (the ids of the trials in the scope)`, for tables that carry a
 * trial id (participants, export jobs …): one condition, whatever the role.
 */
export function trialIdInScope(column: string, scope: TrialsScope): RawBuilder<boolean> {
  const ref = sql.ref(column);
  if (scope.trialUserId === null)
    return sql<boolean>`${ref} IN (SELECT id FROM trials WHERE team_id = ${scope.teamId})`;
  return sql<boolean>`${ref} IN (
    SELECT t.id FROM trials t
    WHERE t.team_id = ${scope.teamId}
      AND (t.owner_user_id = ${scope.trialUserId}
        OR EXISTS (SELECT 1 FROM trial_users tu WHERE tu.trial_id = t.id AND tu.user_id = ${scope.trialUserId})))`;
}

/**
 * `<column> IN (the staff who see this trial)`, for mail sent to a trial's
 * staff without a session (the study-health digest): active users of the
 * trial's team who are Sys_Admin or Admin of it, or User and own the trial or
 * are its trial users — the same rule as `visibleTrials`, read from the
 * memberships as they are now. A Viewer never; nobody of another team.
 */
export function trialStaffIdIn(column: string, scope: TrialScope): RawBuilder<boolean> {
  const ref = sql.ref(column);
  return sql<boolean>`${ref} IN (
    SELECT m.user_id FROM team_memberships m
    JOIN users u ON u.id = m.user_id AND u.is_active
    JOIN trials t ON t.id = ${scope.trialId} AND t.team_id = m.team_id
    WHERE m.team_id = ${scope.teamId}
      AND (m.role IN ('Sys_Admin', 'Admin')
        OR (m.role = 'User' AND (t.owner_user_id = m.user_id
          OR EXISTS (SELECT 1 FROM trial_users tu WHERE tu.trial_id = t.id AND tu.user_id = m.user_id)))))`;
}
