/*
 * Where a point comes from (§3.3 `dataSource`): the legacy user's tracker,
 * the Aria scale, or the phone.
 */
import { fitbitDevices } from '../../fitbit/fitbit-data.js';
import type { Source } from './spec.js';

const trackers = new Map<string, { model: string; formFactor: string }>();
/** The tracker's model and form factor (the legacy devices list's tracker). */
export function trackerOf(dataUserId: string) {
  let t = trackers.get(dataUserId);
  if (!t) {
    const model = fitbitDevices(dataUserId, new Date(0))[0]!.deviceVersion;
    t = { model, formFactor: /Sense|Versa/.test(model) ? 'WATCH' : 'FITNESS_BAND' };
    if (trackers.size > 10_000) trackers.clear();
    trackers.set(dataUserId, t);
  }
  return t;
}

/** The `dataSource` of a point (§3.3). */
export function dataSource(dataUserId: string, source: Source) {
  if (source === 'scale')
    return {
      recordingMethod: 'PASSIVELY_MEASURED',
      device: { displayName: 'Aria Air', formFactor: 'SCALE', manufacturer: 'Fitbit' },
      platform: 'FITBIT',
    };
  if (source === 'phone')
    return {
      recordingMethod: 'PASSIVELY_MEASURED',
      device: { displayName: 'Pixel 8', formFactor: 'PHONE', manufacturer: 'Google' },
      application: { packageName: 'com.fitbit.FitbitMobile' },
      platform: 'FITBIT',
    };
  const { model, formFactor } = trackerOf(dataUserId);
  return {
    recordingMethod: 'PASSIVELY_MEASURED',
    device: { displayName: model, formFactor, manufacturer: 'Fitbit' },
    platform: 'FITBIT',
  };
}
