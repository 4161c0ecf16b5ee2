import { TRIAL_MESSAGES, TRIAL_USER_MESSAGES } from '@trialwear/contract';
import { AppError, isPgError, notFound } from '../../access/errors.js';
import { type Actor, requireTrial, teamScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { requireVisibleTrial } from '../trials/service.js';
import * as repo from './repo.js';

/** Members of the actor's team (for the Add User dropdown). */
export async function listTeamUsers(ctx: AppContext, actor: Actor, trialId: number) {
  await requireTrial(ctx, actor, trialId);
  return repo.listTeamMembers(ctx.db, teamScope(actor));
}

export async function listTrialUsers(ctx: AppContext, actor: Actor, trialId: number) {
  const { scope, row: trial } = await requireVisibleTrial(ctx, actor, trialId);
  const rows = await repo.listTrialUsers(ctx.db, scope);
  return rows.map((r) => ({ ...r, isOwner: r.id === trial.owner_user_id }));
}

export async function addTrialUser(ctx: AppContext, actor: Actor, trialId: number, userEmail: string) {
  return inTransaction(ctx, async (tx) => {
    const trial = await requireTrial(tx, actor, trialId);
    const user = await repo.findTeamMemberByEmail(tx.db, teamScope(actor), userEmail);
    if (!user) throw new AppError(404, TRIAL_USER_MESSAGES.notInTeam, 'NotFound', { displayToUser: true });
    const added = await repo.addTrialUser(tx.db, trial, user.id).catch((err) => {
      // The trial (or the user) was deleted between the check above and the insert.
      if (isPgError(err, '23503', 'trial_users_trial_id_fkey')) throw notFound(TRIAL_MESSAGES.notFound);
      if (isPgError(err, '23503', 'trial_users_user_id_fkey'))
        throw new AppError(404, TRIAL_USER_MESSAGES.notInTeam, 'NotFound', { displayToUser: true });
      throw err;
    });
    if (!added)
      throw new AppError(409, TRIAL_USER_MESSAGES.alreadyOnTrial, 'Conflict', { displayToUser: true });
    await recordActorAudit(tx.db, actor, {
      action: 'trial_user.add',
      entityType: 'trial',
      entityId: trialId,
      after: { userId: user.id, email: user.email },
    });
    return { userId: user.id, userEmail: user.email };
  });
}

export async function removeTrialUser(ctx: AppContext, actor: Actor, trialId: number, userId: number) {
  await inTransaction(ctx, async (tx) => {
    const { scope, row: trial } = await requireVisibleTrial(tx, actor, trialId);
    if (trial.owner_user_id === userId) {
      throw new AppError(409, TRIAL_USER_MESSAGES.ownerCannotBeRemoved, 'Conflict', { displayToUser: true });
    }
    if (!(await repo.removeTrialUser(tx.db, scope, userId))) throw notFound(TRIAL_USER_MESSAGES.notOnTrial);
    await recordActorAudit(tx.db, actor, {
      action: 'trial_user.remove',
      entityType: 'trial',
      entityId: trialId,
      before: { userId },
    });
  });
}
