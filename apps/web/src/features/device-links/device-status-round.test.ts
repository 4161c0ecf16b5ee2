import { DEVICE_ERROR_LABELS, type DeviceEntry } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { refreshRound, type StatusTarget } from './device-status-round';

const ok: DeviceEntry = {
  device: 'fitness tracker',
  deviceName: 'Fitbit Charge 6',
  batteryLevel: 80,
  battery: 'High',
  deviceVersion: 'Charge 6',
  deviceType: 'TRACKER',
  lastSyncTime: null,
  hasError: false,
  errorType: null,
};
const err = (errorType: string): DeviceEntry => ({ ...ok, device: 'Error', hasError: true, errorType });

describe('device status refresh round', () => {
  const targets: StatusTarget[] = [
    { participantId: 1, provider: 'fitbit' },
    { participantId: 2, provider: 'fitbit' },
    { participantId: 3, provider: 'omron' },
    { participantId: 4, provider: 'fitbit' },
  ];

  it('asks one participant at a time with 100 ms between them', async () => {
    const log: string[] = [];
    const result = await refreshRound(
      targets,
      async (t) => {
        log.push(`fetch ${t.participantId}`);
        return [ok];
      },
      async (ms) => {
        log.push(`sleep ${ms}`);
      },
    );
    expect(log).toEqual(['fetch 1', 'sleep 100', 'fetch 2', 'sleep 100', 'fetch 3', 'sleep 100', 'fetch 4']);
    expect(result.incomplete).toBe(false);
    expect(result.entries.size).toBe(4);
  });

  it('a rate-limited provider is not asked again in the same round; the warning is raised', async () => {
    const asked: number[] = [];
    const result = await refreshRound(
      targets,
      async (t) => {
        asked.push(t.participantId);
        return t.provider === 'fitbit' ? [err(DEVICE_ERROR_LABELS.rateLimited)] : [ok];
      },
      async () => {},
    );
    expect(asked).toEqual([1, 3]);
    expect(result.incomplete).toBe(true);
  });

  it('a failed request or an error card marks the round incomplete; the rest still load', async () => {
    const result = await refreshRound(
      targets,
      async (t) => {
        if (t.participantId === 2) throw new Error('network');
        return t.participantId === 3 ? [err(DEVICE_ERROR_LABELS.authRequired)] : [ok];
      },
      async () => {},
    );
    expect(result.incomplete).toBe(true);
    expect([...result.entries.keys()]).toEqual(['fitbit:1', 'omron:3', 'fitbit:4']);
  });
});
