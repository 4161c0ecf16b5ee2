import { DEVICE_STATUS, type Provider, providerOfLink } from '@trialwear/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fetchDevices } from './api/device-links-api';
import { refreshRound, type StatusTarget } from './device-status-round';

/**
 * Re-checks the linked devices of the listed participants now and every
 * 5 minutes (core §4), one participant at a time, and reports whether some
 * device information could not be loaded.
 */
export function useDeviceStatusRefresh(participants: Array<{ id: number; authorized_devices: string[] }>) {
  const [incomplete, setIncomplete] = useState(false);
  const targets = useMemo<StatusTarget[]>(
    () =>
      participants.flatMap((p) =>
        [...new Set(p.authorized_devices.map(providerOfLink).filter((x): x is Provider => !!x))].map(
          (provider) => ({
            participantId: p.id,
            provider,
          }),
        ),
      ),
    [participants],
  );
  // Re-run only when the set of linked devices changes, not on every new array.
  const key = targets.map((t) => `${t.provider}:${t.participantId}`).join(',');
  const latest = useRef(targets);
  latest.current = targets;

  useEffect(() => {
    if (!key) return;
    const targets = latest.current;
    let stopped = false;
    const run = async () => {
      const result = await refreshRound(
        targets,
        (t) => fetchDevices(t.provider, t.participantId),
        (ms) => new Promise((r) => setTimeout(r, ms)),
        () => stopped,
      );
      if (!stopped) setIncomplete(result.incomplete);
    };
    void run();
    const timer = setInterval(run, DEVICE_STATUS.refreshMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [key]);

  return { incomplete };
}
