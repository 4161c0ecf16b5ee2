import type { Trial } from '@trialwear/contract';
import { useLocation } from 'react-router';

/** The trial a page works on: from navigation state, else the one stored for this session. */
export const STORED_TRIAL_KEY = 'tw.currentTrial';

export function rememberTrial(trial: Trial) {
  sessionStorage.setItem(STORED_TRIAL_KEY, JSON.stringify(trial));
}

export function useCurrentTrial(): Trial | null {
  const location = useLocation();
  const fromState = (location.state as { trial?: Trial } | null)?.trial;
  if (fromState) return fromState;
  try {
    const stored = sessionStorage.getItem(STORED_TRIAL_KEY);
    return stored ? (JSON.parse(stored) as Trial) : null;
  } catch {
    return null;
  }
}
