import { TRIAL_MESSAGES, type Trial, type TrialForm } from '@trialwear/contract';
import { AppError, notFound } from '../../access/errors.js';
import { type Actor, requireTrial, teamScope, visibleTrials } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { lockTeamForLimits } from '../teams/service.js';
import * as repo from './repo.js';
import { proposeTrialCode, uniqueTrialCode } from './trial-code.js';

export function toTrial(row: repo.TrialRow): Trial {
  return {
    trialId: row.id,
    trial_id: row.id,
    trialNumber: row.trial_number,
    trialName: row.trial_name,
    trialNotes: row.trial_notes ?? '',
    trialOwnerEmail: row.owner_email,
    trial_code: row.trial_code,
    creation_date: new Date(row.creation_date).toISOString(),
    participantCount: row.participant_count,
  };
}

/** The trial if the actor may see it, with its scope; 404 otherwise (also for other teams' trials). */
export async function requireVisibleTrial(ctx: Pick<AppContext, 'db'>, actor: Actor, trialId: number) {
  const scope = await requireTrial(ctx, actor, trialId);
  const row = await repo.findTrial(ctx.db, scope);
  if (!row) throw notFound(TRIAL_MESSAGES.notFound);
  return { scope, row };
}

export async function listTrials(ctx: AppContext, actor: Actor): Promise<Trial[]> {
  return (await repo.listTrialsInScope(ctx.db, visibleTrials(actor))).map(toTrial);
}

const audit = (
  ctx: Pick<AppContext, 'db'>,
  actor: Actor,
  action: string,
  entityId: number,
  before?: unknown,
  after?: unknown,
) => recordActorAudit(ctx.db, actor, { action, entityType: 'trial', entityId, before, after });

/**
 * A unique index refusing a write that raced past the check (two edits, or an
 * edit and a creation, of the same trial number at once) is the same 409.
 */
function mapTrialConflict(err: unknown): never {
  const e = err as { code?: string; constraint?: string };
  if (e.code === '23505' && e.constraint === 'trials_team_number_key')
    throw new AppError(409, TRIAL_MESSAGES.numberTaken, 'Conflict', { displayToUser: true });
  throw err;
}

export async function addTrial(ctx: AppContext, actor: Actor, form: Required<TrialForm>): Promise<Trial> {
  return inTransaction(ctx, async (tx) => {
    // First: the team's lock, so that concurrent creations count one after another (the limit is exact).
    const team = teamScope(actor);
    const { max_trials: maxTrials } = await lockTeamForLimits(tx, team);
    if (maxTrials !== null && (await repo.countTeamTrials(tx.db, team)) >= maxTrials) {
      throw new AppError(409, TRIAL_MESSAGES.limitReached, 'Conflict', { displayToUser: true });
    }
    if (await repo.findTrialByNumber(tx.db, team, form.trialNumber)) {
      throw new AppError(409, TRIAL_MESSAGES.numberTaken, 'Conflict', { displayToUser: true });
    }
    const code = await uniqueTrialCode(proposeTrialCode(form.trialName, form.trialNumber), (c) =>
      repo.trialCodeExists(tx.db, team, c),
    );
    const id = await repo
      .insertTrial(tx.db, team, {
        number: form.trialNumber,
        name: form.trialName,
        notes: form.trialNotes,
        code,
        ownerId: actor.userId,
      })
      .catch(mapTrialConflict);
    const trial = toTrial((await requireVisibleTrial(tx, actor, id)).row);
    await audit(tx, actor, 'trial.create', id, undefined, trial);
    return trial;
  });
}

export async function editTrial(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  form: Required<TrialForm>,
): Promise<Trial> {
  return inTransaction(ctx, async (tx) => {
    const { scope, row } = await requireVisibleTrial(tx, actor, trialId);
    const before = toTrial(row);
    const clash = await repo.findTrialByNumber(tx.db, teamScope(actor), form.trialNumber);
    if (clash && clash.id !== trialId)
      throw new AppError(409, TRIAL_MESSAGES.numberTaken, 'Conflict', { displayToUser: true });
    await repo
      .updateTrial(tx.db, scope, {
        number: form.trialNumber,
        name: form.trialName,
        notes: form.trialNotes,
      })
      .catch(mapTrialConflict);
    const after = toTrial((await requireVisibleTrial(tx, actor, trialId)).row);
    await audit(tx, actor, 'trial.update', trialId, before, after);
    return after;
  });
}

/**
 * Deleting a trial that still has participants is refused: their device links,
 * tokens and readings would go with them, which must never happen by a
 * single click. Delete the participants first (each is confirmed and audited).
 */
export async function removeTrial(ctx: AppContext, actor: Actor, trialId: number) {
  await inTransaction(ctx, async (tx) => {
    // The team's lock, as addParticipant takes it: a participant added meanwhile is counted here.
    await lockTeamForLimits(tx, teamScope(actor));
    const { scope, row } = await requireVisibleTrial(tx, actor, trialId);
    const before = toTrial(row);
    if (before.participantCount > 0)
      throw new AppError(409, TRIAL_MESSAGES.hasParticipants, 'Conflict', { displayToUser: true });
    await repo.deleteTrial(tx.db, scope);
    await audit(tx, actor, 'trial.delete', trialId, before, undefined);
  });
}
