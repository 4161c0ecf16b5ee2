/*
 * Provider simulators (Fitbit, Omron, Dexcom, Google Health): OAuth and data
 * APIs that behave like the real services, as Fastify plugins that can be
 * mounted in the portal or served standalone (npm run sim).
 */
export { SimClock } from './clock.js';
export { dexcomCalibrations, dexcomEgvs, dexcomEvents, dexcomZone } from './dexcom/dexcom-data.js';
export { type DexcomSimulatorOptions, dexcomSimulator } from './dexcom/dexcom-simulator.js';
export { fitbitDay, fitbitIntradayHeart, fitbitIntradaySteps } from './fitbit/fitbit-daily.js';
export {
  fitbitDevices,
  fitbitProfile,
  fitbitTrackerLastSync,
  fitbitUserId,
  fitbitUserTimezone,
} from './fitbit/fitbit-data.js';
export {
  resetFitbitDeviceState,
  setFitbitBattery,
  setFitbitWear,
  stopFitbitSync,
} from './fitbit/fitbit-device-state.js';
export { fitbitHrvIntraday } from './fitbit/fitbit-hrv-intraday.js';
export { fitbitIntradayDataset, fitbitLocalMinutes } from './fitbit/fitbit-intraday.js';
export { FITBIT_SCOPES, type FitbitSimulatorOptions, fitbitSimulator } from './fitbit/fitbit-simulator.js';
export { fitbitSleepStages } from './fitbit/fitbit-sleep-stages.js';
export { fitbitLocalDate, fitbitWearMinutes, fitbitWornMask } from './fitbit/fitbit-wear.js';
export { activityChunks } from './google-health/data-types/activity-day.js';
export { DATA_TYPES as GOOGLE_HEALTH_DATA_TYPES } from './google-health/data-types/catalogue.js';
export { pointsOfDate as googleHealthPointsOfDate } from './google-health/data-types/points-of-date.js';
export { sleepSession as googleHealthSleepSession } from './google-health/data-types/sleep-day.js';
export {
  DEFAULT_CONFIG as GOOGLE_HEALTH_DEFAULT_CONFIG,
  type GoogleHealthConfig,
} from './google-health/gh-config.js';
export {
  GOOGLE_HEALTH_SIM_CLIENT_ID,
  GOOGLE_HEALTH_SIM_PREFIX,
  type GoogleHealthSimulatorOptions,
  googleHealthSimulator,
} from './google-health/google-health-simulator.js';
export { GOOGLE_HEALTH_SCOPES } from './google-health/google-oauth.js';
export { googleHealthUserId } from './google-health/person.js';
export { accountFromSeed } from './oauth/common.js';
export type { ConsentGrant, IssuedTokens, OAuthClient } from './oauth/oauth-store.js';
export { omronDay, omronUserZone } from './omron/omron-data.js';
export { type OmronSimulatorOptions, omronSimulator } from './omron/omron-simulator.js';

export const SIMULATED_PROVIDERS = ['fitbit', 'omron', 'dexcom', 'google-health'] as const;
export { REDCAP_DEMO_PROJECT, REDCAP_DEMO_TOKEN } from './redcap/redcap-demo.js';
export type { RedcapField, RedcapProjectSeed, RedcapRow } from './redcap/redcap-project.js';
export {
  REDCAP_API_ERRORS,
  REDCAP_SIM_PREFIX,
  REDCAP_VERSION,
  type RedcapSimulatorOptions,
  redcapSimulator,
} from './redcap/redcap-simulator.js';
