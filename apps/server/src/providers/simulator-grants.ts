/*
 * The simulated Fitbit mounted on this server can grant a participant's
 * consent in-process (no browser): the demo seed links its wearers with real
 * simulator tokens this way, so the sync and the hourly device check read
 * them like any link (decision 036). One per provider registry (one per
 * running app); none when Fitbit is the real service or not mounted here.
 */
import type { IssuedTokens } from '@trialwear/simulators';

type Grant = (clientId: string, userId: string) => IssuedTokens;

const grants = new WeakMap<object, Grant>();

export function registerFitbitSimulatorGrant(registry: object, grant: Grant) {
  grants.set(registry, grant);
}

export function fitbitSimulatorGrant(registry: object): Grant | null {
  return grants.get(registry) ?? null;
}
