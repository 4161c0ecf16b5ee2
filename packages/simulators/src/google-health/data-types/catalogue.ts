/*
 * The data types the simulator serves (google-health-api.md §3.9): one row
 * per type, saying how its points are made from the legacy day (the
 * `*-points.ts` modules) and how they roll up (`roll-ups.ts`). Everything
 * is derived from the legacy Fitbit generators, so one person gives equal
 * values on both APIs.
 *
 * What a row leaves out follows from what it has: a type lists unless
 * `list` says otherwise; it has roll-ups (rollUp and dailyRollUp) when it
 * has an aggregation, and a dailyRollUp only when it has a personal range
 * (the daily types); roll-up ranges are 90 days unless `maxRollUpDays`.
 */
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import type { GoogleHealthConfig } from '../gh-config.js';
import { duration } from '../gh-json.js';
import { LEVELS } from './activity-day.js';
import {
  activeEnergyPoints,
  activeMinutesPoints,
  activityLevelPoints,
  altitudePoints,
  distancePoints,
  floorsPoints,
  stepsPoints,
  totalCaloriesPoints,
} from './activity-points.js';
import { HR_ZONES } from './heart-day.js';
import {
  activeZoneMinutesPoints,
  heartRatePoints,
  heartRateVariabilityPoints,
  heartRateVariabilitySamplePoints,
  heartRateZonesPoints,
  restingHeartRatePoints,
  timeInZonePoints,
} from './heart-points.js';
import {
  bodyFatPoints,
  dailyOxygenSaturationPoints,
  heightPoints,
  oxygenSaturationPoints,
  respiratoryRatePoints,
  sleepTemperaturePoints,
  vo2MaxPoints,
  weightPoints,
} from './measurement-points.js';
import {
  avgOf,
  beatsPerMinuteStats,
  kcalSumOfCents,
  type PersonalRange,
  perLevel,
  personalRange,
  sumOf,
  sumsByLevel,
  totalOf,
} from './roll-ups.js';
import { exercisePoints, hydrationPoints, nutritionPoints, sleepPoints } from './session-points.js';
import type { DataTypeSpec } from './spec.js';

type Row = Pick<
  DataTypeSpec,
  'id' | 'record' | 'scope' | 'points' | 'pageMax' | 'identifiable' | 'durationValued'
> & {
  /** Roll-ups: the value of a window's points. */
  aggregate?: DataTypeSpec['aggregate'];
  personalRange?: PersonalRange;
  /** When list / reconcile / get are allowed (default: always). */
  list?: (c: GoogleHealthConfig) => boolean;
  /** When the roll-ups are allowed, for a type whose roll-ups are configuration. */
  rollUps?: (c: GoogleHealthConfig) => boolean;
  maxRollUpDays?: 14;
};

const ACTIVITY = 'activity_and_fitness';
const HEALTH = 'health_metrics_and_measurements';
const always = () => true;
const never = () => false;

const TABLE: Row[] = [
  { id: 'steps', record: 'interval', scope: ACTIVITY, points: stepsPoints, aggregate: sumOf('countSum') },
  {
    id: 'distance',
    record: 'interval',
    scope: ACTIVITY,
    points: distancePoints,
    aggregate: sumOf('millimetersSum'),
  },
  {
    id: 'floors',
    record: 'interval',
    scope: ACTIVITY,
    list: (cfg) => cfg.floorsList,
    points: floorsPoints,
    aggregate: sumOf('countSum'),
  },
  {
    id: 'altitude',
    record: 'interval',
    scope: ACTIVITY,
    points: altitudePoints,
    aggregate: sumOf('gainMillimetersSum'),
  },
  {
    id: 'total-calories',
    record: 'interval',
    scope: ACTIVITY,
    list: never,
    maxRollUpDays: 14,
    points: totalCaloriesPoints,
    aggregate: kcalSumOfCents,
  },
  {
    id: 'active-energy-burned',
    record: 'interval',
    scope: ACTIVITY,
    points: activeEnergyPoints,
    aggregate: kcalSumOfCents,
  },
  {
    id: 'activity-level',
    record: 'interval',
    scope: ACTIVITY,
    rollUps: (cfg) => cfg.activityLevelRollUps,
    durationValued: true,
    points: activityLevelPoints,
    aggregate: perLevel('activityLevelRollupsByActivityLevelType', LEVELS, (l, s) => ({
      activityLevelType: l,
      totalDuration: duration(s),
    })),
  },
  {
    id: 'active-minutes',
    record: 'interval',
    scope: ACTIVITY,
    maxRollUpDays: 14,
    durationValued: true,
    points: activeMinutesPoints,
    aggregate: perLevel('activeMinutesRollupByActivityLevel', ['LIGHT', 'MODERATE', 'VIGOROUS'], (l, s) => ({
      activityLevel: l,
      activeMinutesSum: String(Math.round(s / 60)),
    })),
  },
  {
    id: 'heart-rate',
    record: 'sample',
    scope: HEALTH,
    maxRollUpDays: 14,
    points: heartRatePoints,
    aggregate: beatsPerMinuteStats,
  },
  { id: 'daily-heart-rate-zones', record: 'daily', scope: HEALTH, points: heartRateZonesPoints },
  {
    id: 'time-in-heart-rate-zone',
    record: 'interval',
    scope: ACTIVITY,
    durationValued: true,
    points: timeInZonePoints,
    aggregate: perLevel('timeInHeartRateZones', HR_ZONES, (z, s) => ({
      heartRateZone: z,
      duration: duration(s),
    })),
  },
  {
    id: 'active-zone-minutes',
    record: 'interval',
    scope: ACTIVITY,
    points: activeZoneMinutesPoints,
    aggregate: sumsByLevel,
  },
  {
    id: 'daily-resting-heart-rate',
    record: 'daily',
    scope: HEALTH,
    points: restingHeartRatePoints,
    personalRange: (p, end) => {
      const r = personalRange(end, (d) => fitbitDay(p.dataUserId, d).restingHeartRate);
      return r && { restingHeartRatePersonalRange: { beatsPerMinuteMin: r.min, beatsPerMinuteMax: r.max } };
    },
  },
  {
    id: 'daily-heart-rate-variability',
    record: 'daily',
    scope: HEALTH,
    points: heartRateVariabilityPoints,
    personalRange: (p, end) => {
      const r = personalRange(end, (d) => fitbitDay(p.dataUserId, d).hrv?.dailyRmssd ?? null);
      return (
        r && {
          heartRateVariabilityPersonalRange: {
            averageHeartRateVariabilityMillisecondsMin: r.min,
            averageHeartRateVariabilityMillisecondsMax: r.max,
          },
        }
      );
    },
  },
  { id: 'heart-rate-variability', record: 'sample', scope: HEALTH, points: heartRateVariabilitySamplePoints },
  { id: 'oxygen-saturation', record: 'sample', scope: HEALTH, points: oxygenSaturationPoints },
  { id: 'daily-oxygen-saturation', record: 'daily', scope: HEALTH, points: dailyOxygenSaturationPoints },
  { id: 'daily-respiratory-rate', record: 'daily', scope: HEALTH, points: respiratoryRatePoints },
  {
    id: 'daily-sleep-temperature-derivations',
    record: 'daily',
    scope: HEALTH,
    points: sleepTemperaturePoints,
  },
  { id: 'daily-vo2-max', record: 'daily', scope: ACTIVITY, points: vo2MaxPoints },
  {
    id: 'weight',
    record: 'sample',
    scope: HEALTH,
    points: weightPoints,
    aggregate: avgOf('weightGramsAvg', 3),
  },
  {
    id: 'body-fat',
    record: 'sample',
    scope: HEALTH,
    points: bodyFatPoints,
    aggregate: avgOf('bodyFatPercentageAvg', 3),
  },
  { id: 'height', record: 'sample', scope: HEALTH, points: heightPoints },
  {
    id: 'sleep',
    record: 'session',
    scope: 'sleep',
    pageMax: 25,
    identifiable: true,
    points: sleepPoints,
  },
  {
    id: 'exercise',
    record: 'session',
    scope: ACTIVITY,
    pageMax: 25,
    identifiable: true,
    points: exercisePoints,
  },
  {
    id: 'nutrition-log',
    record: 'session',
    scope: 'nutrition',
    identifiable: true,
    points: nutritionPoints,
    aggregate: totalOf((kcal) => ({ energy: { kcalSum: kcal } })),
  },
  {
    id: 'hydration-log',
    record: 'session',
    scope: 'nutrition',
    identifiable: true,
    points: hydrationPoints,
    aggregate: totalOf((ml) => ({ amountConsumed: { millilitersSum: ml } })),
  },
];

/** A row with what it leaves out filled in (see the header). */
function specOf({ list, rollUps, maxRollUpDays, ...row }: Row): DataTypeSpec {
  const rollUp = rollUps ?? (row.aggregate ? always : never);
  return {
    ...row,
    list: list ?? always,
    rollUp,
    dailyRollUp: row.personalRange ? always : rollUp,
    maxRollUpDays: maxRollUpDays ?? 90,
  };
}

export const DATA_TYPES = new Map(TABLE.map((row) => [row.id, specOf(row)]));

/** The three spellings (§3.1): kebab in paths, snake in filters, lowerCamel as the payload key. */
export const snakeOf = (id: string) => id.replaceAll('-', '_');
export const payloadKeyOf = (id: string) => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
