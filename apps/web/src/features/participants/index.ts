/*
 * What other features may use of participants: the trial's participant list
 * (a data page opened from a link loads its participant through it).
 */
export { useTrialParticipants } from './api/participants-api';
