/*
 * What a raw page may ask each provider for (issue #10 item 9): a choice of
 * resources and a period, turned into the raw call's parameters. Fitbit paths
 * are built here and checked with the contract's allow-list before sending,
 * so a range longer than the provider takes is refused in the page with the
 * reason, not by a 400.
 */
import {
  DEXCOM_MAX_WINDOW_DAYS,
  DEXCOM_RESOURCES,
  type Provider,
  parseFitbitResourcePath,
} from '@trialwear/contract';
import type { RawRequest } from '../api/raw-data-api';
import { daysAgo } from '../lib/local-dates';

export interface RawChoice {
  value: string;
  label: string;
}

/** Fitbit resources by their path template ({start}, {end}: local dates). */
const FITBIT: Array<RawChoice & { path: string }> = [
  { value: 'steps', label: 'Steps', path: '/activities/steps/date/{start}/{end}.json' },
  { value: 'distance', label: 'Distance', path: '/activities/distance/date/{start}/{end}.json' },
  { value: 'floors', label: 'Floors', path: '/activities/floors/date/{start}/{end}.json' },
  {
    value: 'activeMinutes',
    label: 'Very active minutes',
    path: '/activities/tracker/minutesVeryActive/date/{start}/{end}.json',
  },
  { value: 'heart', label: 'Heart rate', path: '/activities/heart/date/{start}/{end}.json' },
  { value: 'sleep', label: 'Sleep', path: '/sleep/date/{start}/{end}.json' },
  { value: 'weight', label: 'Weight', path: '/body/weight/date/{start}/{end}.json' },
  { value: 'weightLog', label: 'Weight log', path: '/body/log/weight/date/{start}/{end}.json' },
  { value: 'water', label: 'Water', path: '/foods/log/water/date/{start}/{end}.json' },
  { value: 'spo2', label: 'SpO2', path: '/spo2/date/{start}/{end}.json' },
  { value: 'cardioscore', label: 'Cardio score (VO2 max)', path: '/cardioscore/date/{start}/{end}.json' },
  { value: 'hrv', label: 'Heart rate variability', path: '/hrv/date/{start}/{end}.json' },
  {
    value: 'hrvIntraday',
    label: 'Heart rate variability (5-minute)',
    path: '/hrv/date/{start}/{end}/all.json',
  },
  { value: 'activityDay', label: 'Activity summary of the end day', path: '/activities/date/{end}.json' },
];

const OMRON: RawChoice[] = [
  { value: 'bloodPressure', label: 'Blood pressure' },
  { value: 'weight', label: 'Weight' },
];

const DEXCOM: RawChoice[] = DEXCOM_RESOURCES.map((r) => ({ value: r, label: r }));

export const RAW_CHOICES: Record<Provider, RawChoice[]> = { fitbit: FITBIT, omron: OMRON, dexcom: DEXCOM };

/** The period of a raw request: local start and end dates (Omron uses only the start). */
export interface RawPeriod {
  start: string;
  end: string;
}

export const defaultRawPeriod = (now: Date = new Date()): RawPeriod => ({
  start: daysAgo(6, now),
  end: daysAgo(0, now),
});

/** The raw call's parameters, or the reason it cannot be asked. */
export function rawRequestFor(
  provider: Provider,
  resource: string,
  period: RawPeriod,
): { ok: true; request: RawRequest } | { ok: false; reason: string } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(period.start) || !/^\d{4}-\d{2}-\d{2}$/.test(period.end))
    return { ok: false, reason: 'Please select a start and an end date' };
  if (period.end < period.start) return { ok: false, reason: 'End date cannot be before start date' };
  if (provider === 'fitbit') {
    const choice = FITBIT.find((c) => c.value === resource);
    if (!choice) return { ok: false, reason: 'Unknown resource path' };
    const path = choice.path.replace('{start}', period.start).replace('{end}', period.end);
    const parsed = parseFitbitResourcePath(path);
    if (!parsed)
      return {
        ok: false,
        reason: 'Fitbit does not accept this range for this resource: choose a shorter period',
      };
    return { ok: true, request: { resource: path } };
  }
  if (provider === 'omron') {
    if (!OMRON.some((c) => c.value === resource)) return { ok: false, reason: 'Unknown resource path' };
    return { ok: true, request: { resource, since: period.start } };
  }
  if (!DEXCOM.some((c) => c.value === resource)) return { ok: false, reason: 'Unknown resource path' };
  // Dexcom reads UTC date-times; one raw call is one provider window (at most 30 days).
  const days = (Date.parse(period.end) - Date.parse(period.start)) / 86_400_000 + 1;
  if (days > DEXCOM_MAX_WINDOW_DAYS)
    return { ok: false, reason: `Dexcom answers at most ${DEXCOM_MAX_WINDOW_DAYS} days at once` };
  const dated = resource !== 'devices' && resource !== 'dataRange';
  return {
    ok: true,
    request: dated
      ? { resource, startDate: `${period.start}T00:00:00`, endDate: `${period.end}T23:59:59` }
      : { resource },
  };
}
