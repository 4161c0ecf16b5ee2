/*
 * The provider registry: one client per provider, built once at start from
 * configuration (real service when its credentials are set, otherwise the
 * simulator mounted on this server). Routes, jobs and the CLI all reach
 * providers through it (`ctx.providers`).
 */
import { PROVIDERS, type Provider } from '@trialwear/contract';
import type { Config } from '../config.js';
import type { Secrets } from '../security/secrets.js';
import { createDexcomClient, dexcomSettings } from './dexcom/dexcom-client.js';
import { createFitbitClient, fitbitSettings } from './fitbit/fitbit-client.js';
import { createOmronClient, omronSettings } from './omron/omron-client.js';
import type { ProviderClient } from './types.js';

export type ProviderRegistry = Readonly<Record<Provider, ProviderClient>>;

export function createProviderRegistry(config: Config, secrets: Secrets): ProviderRegistry {
  const registry: Record<Provider, ProviderClient> = {
    fitbit: createFitbitClient(fitbitSettings(config, secrets)),
    omron: createOmronClient(omronSettings(config, secrets)),
    dexcom: createDexcomClient(dexcomSettings(config, secrets)),
  };
  for (const p of PROVIDERS) if (!registry[p]) throw new Error(`No client for provider ${p}`);
  return Object.freeze(registry);
}
