/** The access module: the Actor, the errors, and the scope rules every feature reaches data through. */
export type { Actor } from './actor.js';
export {
  participantByGrant,
  requireExportJob,
  requireHealthAlert,
  requireParticipant,
  requireSelf,
  requireTeam,
  requireTrial,
  teamScope,
} from './rules.js';
export type {
  ExportJobScope,
  HealthAlertScope,
  ParticipantScope,
  TeamScope,
  TrialScope,
  TrialsScope,
} from './scope.js';
export {
  ALL_TEAM_TRIALS,
  ownedOrTrialUser,
  trialIdInScope,
  trialInScope,
  trialStaffIdIn,
  visibleTrials,
} from './trial-visibility.js';
