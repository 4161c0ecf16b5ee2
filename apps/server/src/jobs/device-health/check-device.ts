/*
 * One device's study-health check (issue #23 items 1–2): what the device
 * reports (its device list: battery level and the provider's last sync,
 * stored on device_sync_state) and its measured days (the provider
 * module's `health`: Fitbit wear minutes, Dexcom CGM active time, Omron
 * blood-pressure readings; the last 3 complete local days and today, so a
 * late upload is followed), stored in device_health_days with the stored
 * metrics present each day. Budgeted like the sync (background share of the
 * hour, the provider app's limit); a check is idempotent: re-run, it
 * replaces the same days.
 */
import { PROVIDER_OF_LINK } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { participantZone } from '../../features/device-data/participant-zone.js';
import { type HealthDay, type HealthIO, ReadRefused, SyncStop } from '../../providers/sync-types.js';
import { backgroundCaller, backgroundReader, ProviderUnavailable } from '../device-sync/background-call.js';
import * as syncRepo from '../device-sync/repo.js';
import * as repo from './repo.js';

export interface DeviceHealthResult {
  deviceId: number;
  status:
    | 'checked'
    | 'not_authorized'
    | 'deferred'
    | 'rate_limited'
    | 'budget'
    | 'revoked'
    | 'unavailable'
    | 'refused';
  calls: number;
  lastSyncAt: string | null;
  batteryLevel: number | null;
  days: HealthDay[];
  error?: string;
}

export async function checkDeviceHealth(ctx: AppContext, deviceId: number): Promise<DeviceHealthResult> {
  const result: DeviceHealthResult = {
    deviceId,
    status: 'checked',
    calls: 0,
    lastSyncAt: null,
    batteryLevel: null,
    days: [],
  };
  const device = await syncRepo.findDevice(ctx.db, deviceId);
  if (!device || device.authorization_status !== 'authorized') return { ...result, status: 'not_authorized' };
  const now = ctx.now();
  await syncRepo.ensureState(ctx.db, deviceId);
  const state = await syncRepo.state(ctx.db, deviceId);
  // A wait the sync recorded (429, back-off, spent budget) holds for this check too.
  if (state?.next_allowed_at && state.next_allowed_at > now) return { ...result, status: 'deferred' };

  const client = ctx.providers.links[device.provider];
  const data = client.data;
  if (!data) return result;
  const provider = PROVIDER_OF_LINK[device.provider];
  const opts = { onCall: () => result.calls++ };
  const call = backgroundCaller(ctx, client, deviceId, provider, opts);
  const read = backgroundReader(ctx, client, deviceId, provider, opts);
  let zone: string | null = null;
  const zoneOf = async () => {
    if (!data.localTime) return null;
    zone ??= await participantZone(ctx.providers, device, now, () =>
      read({ resource: 'profile', params: {} }),
    );
    return zone;
  };
  try {
    const entries = await call((token) => client.devices(token, now));
    const lastSyncAt = client.health.lastSyncAt(entries, await zoneOf());
    const batteryLevel = entries.find((e) => typeof e.batteryLevel === 'number')?.batteryLevel ?? null;
    await repo.saveStatus(ctx.db, deviceId, { lastSyncAt, batteryLevel, checkedAt: now });
    const io: HealthIO = {
      now,
      series: async (query, timeZone) => data.toSeries(query, await read(query), timeZone),
      zone: zoneOf,
      lastSyncAt,
    };
    const days = await client.health.days(io);
    await repo.saveDays(ctx.db, device, days, now);
    return { ...result, lastSyncAt: lastSyncAt?.toISOString() ?? null, batteryLevel, days };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof SyncStop) {
      if (err.kind === 'revoked') await syncRepo.markLinkErrored(ctx.db, deviceId, now);
      if (err.nextAllowedAt) await syncRepo.deferUntil(ctx.db, deviceId, err.nextAllowedAt);
      return { ...result, status: err.kind, error: message };
    }
    if (err instanceof ProviderUnavailable) return { ...result, status: 'unavailable', error: message };
    if (err instanceof ReadRefused) return { ...result, status: 'refused', error: message };
    throw err;
  }
}
