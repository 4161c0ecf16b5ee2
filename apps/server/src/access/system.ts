/*
 * Scopes for work no person asked for through a route: the demo seed, the
 * admin CLI (run by an operator on the server), background jobs acting on
 * rows that a scoped request created, and tests and benches setting up
 * fixtures. Each call names its reason, so `grep systemScope` lists every
 * place that skips a person's scope; the architecture test allows this module
 * only in seed/, cli/, jobs/ and outside src/.
 */
import {
  mintScope,
  type ParticipantScope,
  type TeamScope,
  type TrialScope,
  type TrialsScope,
} from './scope.js';

export type SystemReason = 'seed' | 'cli' | 'job' | 'fixture';

export const systemScope = {
  team: (_why: SystemReason, teamId: number) => mintScope<TeamScope>({ teamId }),
  allTrials: (_why: SystemReason, teamId: number) => mintScope<TrialsScope>({ teamId, trialUserId: null }),
  trial: (_why: SystemReason, teamId: number, trialId: number) => mintScope<TrialScope>({ teamId, trialId }),
  participant: (_why: SystemReason, teamId: number, trialId: number, participantId: number) =>
    mintScope<ParticipantScope>({ teamId, trialId, participantId }),
};
