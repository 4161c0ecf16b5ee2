/*
 * One round of the participants' device-status refresh (core §4, §9): every
 * linked participant in turn, 100 ms apart, never in parallel. When a
 * provider answers "Rate limit exceeded" the round skips that provider's
 * remaining participants instead of hammering it; the next round (5 minutes
 * later) tries again.
 */
import { DEVICE_ERROR_LABELS, DEVICE_STATUS, type DeviceEntry, type Provider } from '@trialwear/contract';

export interface StatusTarget {
  participantId: number;
  provider: Provider;
}

export interface RoundResult {
  entries: Map<string, DeviceEntry[]>;
  /** Some device information could not be loaded (an error entry or a failed request). */
  incomplete: boolean;
}

export const statusKey = (t: StatusTarget) => `${t.provider}:${t.participantId}`;

export async function refreshRound(
  targets: StatusTarget[],
  fetchDevices: (t: StatusTarget) => Promise<DeviceEntry[]>,
  sleep: (ms: number) => Promise<void>,
  shouldStop: () => boolean = () => false,
): Promise<RoundResult> {
  const entries = new Map<string, DeviceEntry[]>();
  const rateLimited = new Set<Provider>();
  let incomplete = false;
  let first = true;
  for (const target of targets) {
    if (shouldStop()) break;
    if (rateLimited.has(target.provider)) {
      incomplete = true;
      continue;
    }
    if (!first) await sleep(DEVICE_STATUS.pauseBetweenParticipantsMs);
    first = false;
    try {
      const list = await fetchDevices(target);
      entries.set(statusKey(target), list);
      if (list.some((d) => d.hasError)) incomplete = true;
      if (list.some((d) => d.errorType === DEVICE_ERROR_LABELS.rateLimited)) rateLimited.add(target.provider);
    } catch {
      incomplete = true;
    }
  }
  return { entries, incomplete };
}
