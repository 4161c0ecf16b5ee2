/*
 * What other features may use of device data. Kept light: the device cards
 * (devices feature, Manage Participant) import the Fitbit button table from
 * here, so nothing here may pull in the chart (uPlot); the overview tiles
 * are exported lazily for the same reason.
 */
import { lazy } from 'react';

export {
  FITBIT_BUTTON_QUERY,
  FITBIT_SCALE_BUTTONS,
  FITBIT_TRACKER_BUTTONS,
  type FitbitCardButton,
} from './fitbit/card-buttons';
export type { DataParticipant } from './fitbit/page-state';

/** The Fitbit 7-vs-7 overview tiles of one participant (props: participant, onOpenSubject?), loaded on first use. */
export const FitbitOverviewTiles = lazy(() =>
  import('./fitbit/components/overview-tiles').then((m) => ({ default: m.OverviewTiles })),
);
