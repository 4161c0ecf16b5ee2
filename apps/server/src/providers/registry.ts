/*
 * The provider registry: one client per provider, built once at start from
 * configuration (real service when its credentials are set, otherwise the
 * simulator mounted on this server). Routes, jobs and the CLI all reach
 * providers through it (`ctx.providers`).
 *
 * Fitbit has two back ends (issue #13): the legacy Fitbit Web API and the
 * Google Health API. `fitbit` is the one FITBIT_API names, used for new
 * consents; `links` gives the client of the API a link was authorized
 * with, so a legacy link keeps reading through the legacy API whatever the
 * deployment's choice, until the participant consents again.
 */
import { type LinkProvider, PROVIDERS, type Provider } from '@trialwear/contract';
import type { Config } from '../config.js';
import type { Secrets } from '../security/secrets.js';
import { createDexcomClient, dexcomSettings } from './dexcom/dexcom-client.js';
import { dexcomHealth } from './dexcom/health.js';
import { dexcomSync } from './dexcom/sync.js';
import { createFitbitClient, fitbitSettings } from './fitbit/fitbit-client.js';
import { createGoogleHealthClient } from './fitbit/google-health/google-health-client.js';
import { googleHealthSettings } from './fitbit/google-health/settings.js';
import { fitbitHealth } from './fitbit/health.js';
import { fitbitSync } from './fitbit/sync.js';
import { omronHealth } from './omron/health.js';
import { createOmronClient, omronSettings } from './omron/omron-client.js';
import { omronSync } from './omron/sync.js';
import type { RegisteredClient } from './types.js';

export type ProviderRegistry = Readonly<Record<Provider, RegisteredClient>> & {
  /** The client of each link API (participant_devices.provider). */
  readonly links: Readonly<Record<LinkProvider, RegisteredClient>>;
};

export function createProviderRegistry(config: Config, secrets: Secrets): ProviderRegistry {
  const links: Record<LinkProvider, RegisteredClient> = {
    fitbit: {
      ...createFitbitClient(fitbitSettings(config, secrets)),
      sync: fitbitSync,
      appCallsPerHour: 0,
      health: fitbitHealth,
    },
    google_health: {
      ...createGoogleHealthClient(googleHealthSettings(config, secrets)),
      sync: fitbitSync,
      appCallsPerHour: 0,
      health: fitbitHealth,
    },
    omron: {
      ...createOmronClient(omronSettings(config, secrets)),
      sync: omronSync,
      health: omronHealth,
      appCallsPerHour: config.SYNC_OMRON_APP_CALLS_PER_HOUR,
    },
    dexcom: {
      ...createDexcomClient(dexcomSettings(config, secrets)),
      sync: dexcomSync,
      health: dexcomHealth,
      appCallsPerHour: config.SYNC_DEXCOM_APP_CALLS_PER_HOUR,
    },
  };
  const registry = {
    fitbit: config.FITBIT_API === 'google_health' ? links.google_health : links.fitbit,
    omron: links.omron,
    dexcom: links.dexcom,
    links: Object.freeze(links),
  };
  for (const p of PROVIDERS) if (!registry[p]) throw new Error(`No client for provider ${p}`);
  return Object.freeze(registry);
}
