/*
 * Intraday metrics (issue #24): the metrics whose samples lie on a regular
 * grid of their participant-local day, stored one row per participant, metric
 * and day (intraday_days, decision 039) instead of one row per reading. The
 * step is the grid's spacing in seconds; a sample off the grid is refused by
 * the write path, never rounded.
 */
export const INTRADAY_STEP_SECONDS: Readonly<Record<string, number>> = {
  heart_rate_intraday: 60,
  steps_intraday: 60,
  /** Heart rate at 1-second detail: Fitbit's irregular samples (every 1–15 s) on a 1-second grid. */
  heart_rate_1sec: 1,
};

export const isIntradayMetric = (metricKey: string) => Object.hasOwn(INTRADAY_STEP_SECONDS, metricKey);
