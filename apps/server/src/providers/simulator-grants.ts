/*
 * The simulated providers mounted on this server (Fitbit, Omron, Dexcom) can
 * grant a participant's consent in-process (no browser): the demo seed links
 * its participants with real simulator tokens this way, so the sync and the
 * hourly device check read them like any link (decision 036). One per
 * provider and registry (one registry per running app); none when the
 * provider is the real service or not mounted here.
 */
import type { ConsentGrant } from '@trialwear/simulators';

type GrantingProvider = 'fitbit' | 'omron' | 'dexcom';

const grants = new WeakMap<object, Map<GrantingProvider, ConsentGrant>>();

export function registerSimulatorGrant(registry: object, provider: GrantingProvider, grant: ConsentGrant) {
  const of = grants.get(registry) ?? new Map<GrantingProvider, ConsentGrant>();
  of.set(provider, grant);
  grants.set(registry, of);
}

export function simulatorGrant(registry: object, provider: GrantingProvider): ConsentGrant | null {
  return grants.get(registry)?.get(provider) ?? null;
}
