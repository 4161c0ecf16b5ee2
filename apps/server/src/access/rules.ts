/*
 * Who may reach what (design §5, issue #21): each rule answers a scope value
 * for what the actor may reach, or 404 for anything else, so another team's
 * object and, for a User or Viewer, another trial's object look the same as
 * one that does not exist. Role checks come before (the contract's
 * API_ACCESS table, `http/route-access.ts`); these rules are about which
 * objects.
 *
 * Sys_Admin passes every role check and is platform-wide where a route names
 * a team (`requireTeam`: device settings, storage settings of any team); for
 * trials, participants, export jobs and alerts named by id, a Sys_Admin acts in the
 * session's team and sees all of its trials, like an Admin.
 */
import {
  EXPORT_MESSAGES,
  PARTICIPANT_MESSAGES,
  STUDY_HEALTH_MESSAGES,
  TRIAL_MESSAGES,
} from '@trialwear/contract';
import type { Db } from '../db/database.js';
import type { Actor } from './actor.js';
import { notFound } from './errors.js';
import * as repo from './repo.js';
import {
  type ExportJobScope,
  type HealthAlertScope,
  mintScope,
  type ParticipantScope,
  type TeamScope,
  type TrialScope,
} from './scope.js';
import { visibleTrials } from './trial-visibility.js';

type WithDb = { db: Db };
type ScopeActor = Pick<Actor, 'teamId' | 'userId' | 'role'>;

/** The session's team. */
export function teamScope(actor: Pick<Actor, 'teamId'>): TeamScope {
  return mintScope<TeamScope>({ teamId: actor.teamId });
}

/** A team named by a route: the session's own, or any team for a Sys_Admin (platform-wide); else 404. */
export function requireTeam(actor: Pick<Actor, 'teamId' | 'role'>, teamId: number): TeamScope {
  if (teamId !== actor.teamId && actor.role !== 'Sys_Admin') throw notFound('Team not found');
  return mintScope<TeamScope>({ teamId });
}

/** A user named by a route: the actor themself, or anyone for a Sys_Admin (platform-wide); else 404. */
export function requireSelf(actor: { userId: number; role: Actor['role'] | null }, userId: number): void {
  if (userId !== actor.userId && actor.role !== 'Sys_Admin') throw notFound('User not found');
}

/** A trial of the session's team the actor sees; else 404 with `message`. */
export async function requireTrial(
  { db }: WithDb,
  actor: ScopeActor,
  trialId: number,
  message: string = TRIAL_MESSAGES.notFound,
): Promise<TrialScope> {
  const row = await repo.findTrialInScope(db, visibleTrials(actor), trialId);
  if (!row) throw notFound(message);
  return mintScope<TrialScope>({ teamId: row.team_id, trialId: row.id });
}

/** A participant of a trial the actor sees; else 404. `forUpdate` locks the participant's row. */
export async function requireParticipant(
  { db }: WithDb,
  actor: ScopeActor,
  participantId: number,
  opts: { forUpdate?: boolean; message?: string } = {},
): Promise<ParticipantScope> {
  const scope = visibleTrials(actor);
  const row = await repo.findParticipantInScope(db, scope, participantId, opts.forUpdate ?? false);
  if (!row) throw notFound(opts.message ?? PARTICIPANT_MESSAGES.notFound);
  return mintScope<ParticipantScope>({ teamId: scope.teamId, trialId: row.trial_id, participantId: row.id });
}

/** An export job of the session's team whose trial the actor sees; else 404. */
export async function requireExportJob(
  { db }: WithDb,
  actor: ScopeActor,
  jobId: string,
): Promise<ExportJobScope> {
  const scope = visibleTrials(actor);
  const row = await repo.findExportJobInScope(db, scope, jobId);
  if (!row) throw notFound(EXPORT_MESSAGES.jobNotFound);
  return mintScope<ExportJobScope>({ teamId: scope.teamId, trialId: row.trial_id, jobId: row.id });
}

/** A study-health alert of the session's team whose trial the actor sees; else 404. */
export async function requireHealthAlert(
  { db }: WithDb,
  actor: ScopeActor,
  alertId: number,
): Promise<HealthAlertScope> {
  const scope = visibleTrials(actor);
  const row = await repo.findHealthAlertInScope(db, scope, alertId);
  if (!row) throw notFound(STUDY_HEALTH_MESSAGES.alertNotFound);
  return mintScope<HealthAlertScope>({ teamId: scope.teamId, trialId: row.trial_id, alertId: row.id });
}

/**
 * The participant a verified grant names: a signed, single-use consent state
 * or link that the caller has already checked (the consent callback has no
 * session; the grant is the authority). Undefined when the participant is
 * gone.
 */
export async function participantByGrant({ db }: WithDb, participantId: number) {
  const row = await repo.findParticipantById(db, participantId);
  return (
    row && mintScope<ParticipantScope>({ teamId: row.team_id, trialId: row.trial_id, participantId: row.id })
  );
}
