/*
 * Heart rate under /activities/heart (providers.md §1.7.4, §1.7.5): the daily
 * series (the resting heart rate; no zones) and a day's intraday samples
 * at 1sec/1min/5min/15min.
 */
import { fitbitDay } from '../fitbit-daily.js';
import { fitbitIntradayDataset, type IntradayDetail } from '../fitbit-intraday.js';

export const HEART_DETAILS = ['1sec', '1min', '5min', '15min'];

/** One day of the `activities-heart` series. */
function heartDay(userId: string, day: string) {
  const d = fitbitDay(userId, day);
  return {
    dateTime: day,
    value: {
      customHeartRateZones: [],
      heartRateZones: [],
      ...(d.restingHeartRate === null ? {} : { restingHeartRate: d.restingHeartRate }),
    },
  };
}

export const heartSeries = (userId: string, days: string[]) => ({
  'activities-heart': days.map((day) => heartDay(userId, day)),
});

export const heartIntraday = (
  userId: string,
  day: string,
  detail: IntradayDetail,
  window: [string, string] | undefined,
) => ({
  'activities-heart': [heartDay(userId, day)],
  'activities-heart-intraday': fitbitIntradayDataset(userId, day, 'heart', detail, window),
});
