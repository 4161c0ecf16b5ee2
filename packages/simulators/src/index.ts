/*
 * Provider simulators (Fitbit, Omron, Dexcom): OAuth and data
 * APIs that behave like the real services, as Fastify plugins that can be
 * mounted in the portal or served standalone (npm run sim).
 */
export { SimClock } from './clock.js';
export { dexcomCalibrations, dexcomEgvs, dexcomEvents, dexcomZone } from './dexcom/dexcom-data.js';
export { type DexcomSimulatorOptions, dexcomSimulator } from './dexcom/dexcom-simulator.js';
export { fitbitDay, fitbitIntradayHeart, fitbitIntradaySteps } from './fitbit/fitbit-daily.js';
export { fitbitDevices, fitbitProfile, fitbitUserId, fitbitUserTimezone } from './fitbit/fitbit-data.js';
export { fitbitIntradayDataset, fitbitLocalMinutes } from './fitbit/fitbit-intraday.js';
export { FITBIT_SCOPES, type FitbitSimulatorOptions, fitbitSimulator } from './fitbit/fitbit-simulator.js';
export { accountFromSeed } from './oauth/common.js';
export type { OAuthClient } from './oauth/oauth-store.js';
export { omronDay, omronUserZone } from './omron/omron-data.js';
export { type OmronSimulatorOptions, omronSimulator } from './omron/omron-simulator.js';

export const SIMULATED_PROVIDERS = ['fitbit', 'omron', 'dexcom'] as const;
