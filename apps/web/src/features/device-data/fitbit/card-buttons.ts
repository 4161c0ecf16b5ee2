/*
 * The Fitbit device cards' data buttons (core §2) and where each leads: a
 * TRACKER's 'Fitbit Data' (the overview) and its subjects, a SCALE's 'Weight'.
 * The devices feature renders the buttons; the data page reads the label it
 * is given in the navigation state.
 */
import type { FitbitSubjectKey, TrackerCategory } from './fitbit-subjects';

export const FITBIT_TRACKER_BUTTONS = [
  'Fitbit Data',
  'Steps',
  'Active Minutes',
  'Sleep Duration',
  'Heart Rate',
  'Distance',
] as const;
export const FITBIT_SCALE_BUTTONS = ['Weight'] as const;

export type FitbitCardButton =
  | (typeof FITBIT_TRACKER_BUTTONS)[number]
  | (typeof FITBIT_SCALE_BUTTONS)[number];

export const FITBIT_BUTTON_QUERY: Record<
  FitbitCardButton,
  { category: TrackerCategory; subject: FitbitSubjectKey | null }
> = {
  'Fitbit Data': { category: 'overview', subject: null },
  Steps: { category: 'activities', subject: 'steps' },
  'Active Minutes': { category: 'activities', subject: 'totalTrackerActiveMinutes' },
  'Sleep Duration': { category: 'sleep', subject: 'duration' },
  'Heart Rate': { category: 'heart', subject: 'restingHeartRate' },
  Distance: { category: 'activities', subject: 'distance' },
  Weight: { category: 'body', subject: 'weight' },
};

export const isFitbitCardButton = (s: unknown): s is FitbitCardButton =>
  typeof s === 'string' && Object.hasOwn(FITBIT_BUTTON_QUERY, s);
