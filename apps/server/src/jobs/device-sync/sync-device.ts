/*
 * One participant device's sync: the metrics to read (enabled by the
 * Sys_Admin and selected by the team), each provider call counted against
 * the device's hourly budget and made through withFreshToken (one refresh,
 * one retry), each read stored with its cursors at once. How it stops:
 * - 429: the provider's Retry-After is stored as the next allowed time; the
 *   job ends and is enqueued again no earlier (never a tight loop);
 * - budget spent (ours, or Fitbit's remaining count nearly zero): the same,
 *   until the next hour;
 * - the token is revoked or invalid (refresh refused, 401 after the retry):
 *   the link is marked 'error', which ends its syncing until staff re-link;
 * - 5xx or no answer: thrown, so pg-boss retries with exponential back-off
 *   and jitter; the cursors keep what was stored before.
 */
import type { Provider } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { localDate } from '../../features/device-data/local-dates.js';
import { participantZone } from '../../features/device-data/participant-zone.js';
import type { ProviderClient } from '../../providers/types.js';
import { isTokenFailure, withFreshToken } from '../../providers/with-fresh-token.js';
import { dexcomSync } from './providers/dexcom.js';
import { fitbitSync } from './providers/fitbit.js';
import { omronSync } from './providers/omron.js';
import * as repo from './repo.js';
import { type GroupFailure, type ProviderSync, ReadRefused, type SyncIO, SyncStop } from './types.js';

const SYNCS: Record<Provider, ProviderSync> = { fitbit: fitbitSync, omron: omronSync, dexcom: dexcomSync };
/** Stop before Fitbit's own count runs out (its Fitbit-Rate-Limit-Remaining header). */
const FITBIT_REMAINING_FLOOR = 10;

export interface DeviceSyncResult {
  deviceId: number;
  provider: Provider;
  status: 'synced' | 'partial' | 'deferred' | 'rate_limited' | 'budget' | 'revoked' | 'not_authorized';
  metrics: string[];
  calls: number;
  rowsUpserted: number;
  errors: string[];
  nextAllowedAt?: string;
}

/** A transient provider failure (5xx, network): pg-boss retries the job with back-off. */
export class ProviderUnavailable extends Error {}

const brandProvider = (p: string): Provider => (p === 'google_health' ? 'fitbit' : (p as Provider));

export async function syncDevice(ctx: AppContext, deviceId: number): Promise<DeviceSyncResult> {
  const device = await repo.findDevice(ctx.db, deviceId);
  const provider = brandProvider(device?.provider ?? 'fitbit');
  const result: DeviceSyncResult = {
    deviceId,
    provider,
    status: 'synced',
    metrics: [],
    calls: 0,
    rowsUpserted: 0,
    errors: [],
  };
  if (!device || device.authorization_status !== 'authorized') return { ...result, status: 'not_authorized' };
  const now = ctx.now();
  await repo.ensureState(ctx.db, deviceId);
  const state = await repo.state(ctx.db, deviceId);
  if (state?.next_allowed_at && state.next_allowed_at > now)
    return { ...result, status: 'deferred', nextAllowedAt: state.next_allowed_at.toISOString() };

  const sync = SYNCS[provider];
  // The API the link was authorized with (a legacy Fitbit link keeps the legacy API).
  const client = ctx.providers.links[device.provider];
  const metrics = (await repo.metricsFor(ctx.db, device.team_id, device.provider)).filter((m) =>
    sync.metrics.includes(m),
  );
  result.metrics = metrics;
  if (metrics.length === 0 || !client.data) return result;
  const cursors = await repo.cursors(ctx.db, deviceId);
  const failures: GroupFailure[] = [];
  let zone: string | null = null;

  const read = readerFor(ctx, client, deviceId, result);
  const io: SyncIO = {
    now,
    backfillDays: ctx.config.SYNC_BACKFILL_DAYS,
    read,
    async zone() {
      zone ??= await participantZone(ctx.providers, device, now, () =>
        read({ resource: 'profile', params: {} }),
      );
      return zone;
    },
    cursor: (m) => cursors.get(m) ?? { date: null, at: null },
    async store(group) {
      result.rowsUpserted += await repo.storeGroup(ctx.db, device, group, ctx.now());
    },
    fail: (f) => failures.push(f),
  };

  try {
    await sync.run(io, metrics);
  } catch (err) {
    if (!(err instanceof SyncStop)) {
      await repo.recordAttempt(ctx.db, deviceId, now, { ok: false, error: describe(err) });
      throw err;
    }
    if (err.kind === 'revoked') await repo.markLinkErrored(ctx.db, deviceId, now);
    await repo.refreshHealth(ctx.db, device, localDate(now, zone ?? 'UTC'));
    await repo.recordAttempt(ctx.db, deviceId, now, {
      ok: false,
      error: err.message,
      nextAllowedAt: err.nextAllowedAt,
    });
    return {
      ...result,
      status: err.kind,
      errors: [err.message],
      ...(err.nextAllowedAt ? { nextAllowedAt: err.nextAllowedAt.toISOString() } : {}),
    };
  }
  result.errors = failures.map((f) => `${f.metrics.join(',')}: ${f.error}`);
  // Health figures first: whoever sees the new last success sees them with it.
  await repo.refreshHealth(ctx.db, device, localDate(now, zone ?? 'UTC'));
  await repo.recordAttempt(
    ctx.db,
    deviceId,
    now,
    failures.length ? { ok: false, error: result.errors.join('; ') } : { ok: true },
  );
  return failures.length ? { ...result, status: 'partial' } : result;
}

function describe(err: unknown) {
  return err instanceof Error ? err.message : String(err);
}

/** The reader a provider sync calls: budget first, then the call, then what its answer means. */
function readerFor(
  ctx: AppContext,
  client: ProviderClient,
  deviceId: number,
  result: DeviceSyncResult,
): SyncIO['read'] {
  const data = client.data!;
  return async (query) => {
    const now = ctx.now();
    if (!(await repo.takeCall(ctx.db, deviceId, now, ctx.config.SYNC_CALLS_PER_HOUR)))
      throw new SyncStop('budget', 'Hourly call budget spent; resuming next hour', nextHour(now));
    result.calls++;
    const r = await withFreshToken(ctx, client, deviceId, (token) => data.read(token, query));
    if (isTokenFailure(r)) {
      if (r.tokenProblem === 'missing' || r.tokenProblem === 'refresh_refused')
        throw new SyncStop(
          'revoked',
          'Authorization revoked or invalid: the participant must authorize again',
        );
      throw new ProviderUnavailable(`Token refresh failed: ${r.failure?.message ?? r.tokenProblem}`);
    }
    if (!r.ok) {
      if (r.status === 429) {
        const wait = r.retryAfterSeconds ?? 60;
        throw new SyncStop(
          'rate_limited',
          `Rate limited by the provider (Retry-After ${wait} s)`,
          new Date(now.getTime() + wait * 1000),
        );
      }
      // A 401 left after withFreshToken (refreshed and retried, or not an expiry at all): the token is invalid.
      if (r.status === 401) throw new SyncStop('revoked', REVOKED);
      if (r.status === 0 || r.status >= 500)
        throw new ProviderUnavailable(`Provider unavailable (${r.status || 'no answer'}): ${r.message}`);
      throw new ReadRefused(`${r.status} ${r.message}`);
    }
    const remaining = Number(r.data.headers['fitbit-rate-limit-remaining']);
    if (Number.isFinite(remaining) && remaining <= FITBIT_REMAINING_FLOOR) {
      const reset = Number(r.data.headers['fitbit-rate-limit-reset']);
      const at = Number.isFinite(reset) ? new Date(now.getTime() + reset * 1000) : nextHour(now);
      await repo.deferUntil(ctx.db, deviceId, at);
    }
    return r.data;
  };
}

const REVOKED = 'Authorization revoked or invalid: the participant must authorize again';
const nextHour = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000 + 1) * 3_600_000);
