import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { Actor } from '../../http/actor.js';
import { AppError, notFound } from '../../http/errors.js';
import { requireVisibleTrial } from '../trials/service.js';

export const TRIAL_USER_MESSAGES = {
  notInTeam: 'No user with this email belongs to your team.',
  alreadyOnTrial: 'This user is already a user of this trial.',
  ownerCannotBeRemoved: 'The trial owner cannot be removed from the trial.',
  notOnTrial: 'This user is not a user of this trial.',
} as const;

/** Members of the actor's team (for the Add User dropdown). */
export async function listTeamUsers(ctx: AppContext, actor: Actor, trialId: number) {
  await requireVisibleTrial(ctx, actor, trialId);
  return ctx.db
    .selectFrom('team_memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'm.role'])
    .where('m.team_id', '=', actor.teamId)
    .where('u.is_active', '=', true)
    .orderBy('u.email')
    .execute();
}

export async function listTrialUsers(ctx: AppContext, actor: Actor, trialId: number) {
  const trial = await requireVisibleTrial(ctx, actor, trialId);
  const rows = await ctx.db
    .selectFrom('trial_users as tu')
    .innerJoin('users as u', 'u.id', 'tu.user_id')
    .select(['u.id', 'u.email'])
    .where('tu.trial_id', '=', trialId)
    .orderBy('tu.added_at')
    .orderBy('u.id')
    .execute();
  return rows.map((r) => ({ ...r, isOwner: r.id === trial.owner_user_id }));
}

export async function addTrialUser(ctx: AppContext, actor: Actor, trialId: number, userEmail: string) {
  await requireVisibleTrial(ctx, actor, trialId);
  const user = await ctx.db
    .selectFrom('users as u')
    .innerJoin('team_memberships as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.email'])
    .where('m.team_id', '=', actor.teamId)
    .where(sql<string>`lower(u.email)`, '=', userEmail.toLowerCase())
    .executeTakeFirst();
  if (!user) throw new AppError(404, TRIAL_USER_MESSAGES.notInTeam, 'NotFound', { displayToUser: true });
  const inserted = await ctx.db
    .insertInto('trial_users')
    .values({ trial_id: trialId, user_id: user.id })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (!inserted)
    throw new AppError(409, TRIAL_USER_MESSAGES.alreadyOnTrial, 'Conflict', { displayToUser: true });
  await recordAudit(ctx.db, {
    userId: actor.userId,
    teamId: actor.teamId,
    action: 'trial_user.add',
    entityType: 'trial',
    entityId: trialId,
    after: { userId: user.id, email: user.email },
    requestId: actor.requestId,
    ip: actor.ip,
  });
  return { userId: user.id, userEmail: user.email };
}

export async function removeTrialUser(ctx: AppContext, actor: Actor, trialId: number, userId: number) {
  const trial = await requireVisibleTrial(ctx, actor, trialId);
  if (trial.owner_user_id === userId) {
    throw new AppError(409, TRIAL_USER_MESSAGES.ownerCannotBeRemoved, 'Conflict', { displayToUser: true });
  }
  const removed = await ctx.db
    .deleteFrom('trial_users')
    .where('trial_id', '=', trialId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  if (!removed) throw notFound(TRIAL_USER_MESSAGES.notOnTrial);
  await recordAudit(ctx.db, {
    userId: actor.userId,
    teamId: actor.teamId,
    action: 'trial_user.remove',
    entityType: 'trial',
    entityId: trialId,
    before: { userId },
    requestId: actor.requestId,
    ip: actor.ip,
  });
}
