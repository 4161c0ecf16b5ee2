/*
 * The points of the heart types, from the legacy day: heart-rate samples
 * (the legacy 1sec instants, each minute's mean the legacy 1min value), the
 * day's zones, the time in each zone and the active zone minutes it earns,
 * the daily resting heart rate and heart-rate variability, and the night's
 * 5-minute heart-rate variability samples (the legacy HRV intraday).
 */
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { fitbitHrvIntraday } from '../../fitbit/fitbit-hrv-intraday.js';
import { AZM, heartSamples, hrZones, zoneIntervals } from './heart-day.js';
import { dailyPoint, levelInterval, minutePoint, samplePoint } from './point-builders.js';
import { sleepSession } from './sleep-day.js';
import type { DayCtx, Pt } from './spec.js';

export const heartRatePoints = (c: DayCtx): Pt[] =>
  heartSamples(c).map(({ t, bpm }) => samplePoint(c, t, { beatsPerMinute: String(bpm) }, bpm));

export function heartRateZonesPoints(c: DayCtx): Pt[] {
  const zones = hrZones(c.person.dataUserId, c.date);
  return zones
    ? dailyPoint(c, {
        heartRateZones: zones.map((z) => ({
          heartRateZoneType: z.zone,
          minBeatsPerMinute: String(z.min),
          maxBeatsPerMinute: String(z.max),
        })),
      })
    : [];
}

export const timeInZonePoints = (c: DayCtx): Pt[] =>
  zoneIntervals(c).map((x) => levelInterval(c, x, { heartRateZoneType: x.zone }, x.zone));

export const activeZoneMinutesPoints = (c: DayCtx): Pt[] =>
  zoneIntervals(c).flatMap((x) => {
    const a = AZM[x.zone];
    if (!a) return [];
    const out: Pt[] = [];
    // One point a minute, credit-weighted (1 in fat burn, 2 in cardio and peak).
    for (let t = x.start; t < x.end; t += 60_000)
      out.push({
        ...minutePoint(c, t, { heartRateZone: a.zone, activeZoneMinutes: String(a.credit) }, a.credit),
        level: a.field,
      });
    return out;
  });

export function restingHeartRatePoints(c: DayCtx): Pt[] {
  const v = fitbitDay(c.person.dataUserId, c.date).restingHeartRate;
  return v === null
    ? []
    : dailyPoint(
        c,
        { beatsPerMinute: String(v), dailyRestingHeartRateMetadata: { calculationMethod: 'WITH_SLEEP' } },
        v,
      );
}

export function heartRateVariabilityPoints(c: DayCtx): Pt[] {
  const v = fitbitDay(c.person.dataUserId, c.date).hrv;
  return v === null
    ? []
    : dailyPoint(c, {
        averageHeartRateVariabilityMilliseconds: v.dailyRmssd,
        deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds: v.deepRmssd,
      });
}

/**
 * The main sleep's 5-minute samples (the legacy `/hrv/…/all.json` minutes,
 * same instants and RMSSD); Google has no coverage, hf or lf, and gives a
 * standard deviation (SDNN) the legacy API has not.
 */
export function heartRateVariabilitySamplePoints(c: DayCtx): Pt[] {
  const s = sleepSession(c.person, c.date);
  if (!s) return [];
  return fitbitHrvIntraday(c.person.dataUserId, c.date, s.start).map((x) =>
    samplePoint(
      c,
      x.at,
      {
        rootMeanSquareOfSuccessiveDifferencesMilliseconds: x.rmssd,
        standardDeviationMilliseconds: Math.round(x.rmssd * (1.1 + x.coverage * 0.4) * 1000) / 1000,
      },
      x.rmssd,
      'tracker',
      s.tz,
    ),
  );
}
