/*
 * Provider simulators (Fitbit, Omron, Dexcom): OAuth and data
 * APIs that behave like the real services, as Fastify plugins that can be
 * mounted in the portal or served standalone (npm run sim).
 */
export { SimClock } from './clock.js';
export { type DexcomSimulatorOptions, dexcomSimulator } from './dexcom/dexcom-simulator.js';
export { fitbitDevices, fitbitProfile, fitbitUserId } from './fitbit/fitbit-data.js';
export { FITBIT_SCOPES, type FitbitSimulatorOptions, fitbitSimulator } from './fitbit/fitbit-simulator.js';
export type { OAuthClient } from './oauth/oauth-store.js';
export { type OmronSimulatorOptions, omronSimulator } from './omron/omron-simulator.js';

export const SIMULATED_PROVIDERS = ['fitbit', 'omron', 'dexcom'] as const;
