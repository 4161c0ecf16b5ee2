/*
 * What other features may use of trials: the list of the trials the user
 * sees (a page opened from a link names its trial from it).
 */
export { useTrials } from './api/trials-api';
