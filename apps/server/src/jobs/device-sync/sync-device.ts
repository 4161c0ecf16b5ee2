/*
 * One participant device's sync: the metrics to read (enabled by the
 * Sys_Admin and selected by the team), each provider call counted against
 * the device's hourly budget (per user) and the provider's (per app, where
 * it has one) and made through withFreshToken (one refresh, one retry),
 * each read stored with its cursors at once. How it stops:
 * - 429: the provider's Retry-After is stored as the next allowed time; the
 *   job ends and is enqueued again no earlier (never a tight loop);
 * - budget spent (the device's or the provider app's, or Fitbit's remaining
 *   count nearly zero): the same, until the next hour;
 * - the token is revoked or invalid (refresh refused, 401 after the retry):
 *   the link is marked 'error', which ends its syncing until staff re-link;
 * - 5xx or no answer: the device backs off exponentially with jitter (the
 *   n-th failure in a row allows the next call 1–1.5 × 60 s × 2^(n-1) later,
 *   at most 6 h; a success resets it), stored as the next allowed time like a
 *   Retry-After, and the job is enqueued again no earlier; the cursors keep
 *   what was stored before.
 */
import { PROVIDER_OF_LINK, type Provider } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { participantZone } from '../../features/device-data/participant-zone.js';
import { type Cursor, type GroupFailure, type SyncIO, SyncStop } from '../../providers/sync-types.js';
import { backgroundReader, ProviderUnavailable } from './background-call.js';
import * as repo from './repo.js';

export { ProviderUnavailable };

export interface DeviceSyncResult {
  deviceId: number;
  provider: Provider;
  status:
    | 'synced'
    | 'partial'
    | 'deferred'
    | 'rate_limited'
    | 'budget'
    | 'unavailable'
    | 'revoked'
    | 'not_authorized';
  metrics: string[];
  calls: number;
  rowsUpserted: number;
  errors: string[];
  /**
   * When the device may next be called, on every result: a time to wait for
   * after a 429's Retry-After, a spent budget, a 5xx back-off or an earlier
   * such wait ('rate_limited', 'budget', 'unavailable', 'deferred'); null when
   * there is nothing to wait for ('synced'; 'partial': what failed was refused
   * and waiting would not change it; 'revoked', 'not_authorized': not before
   * the participant authorizes again).
   */
  nextAllowedAt: string | null;
  /** The wait is for a provider limit (our hourly budget, the provider's 429), not a failure's back-off. */
  limited?: boolean;
  /** Days of a backfill are left for another run (the provider module's per-run limit stopped this one). */
  more?: boolean;
}

export const BACKOFF_BASE_MS = 60_000;
export const BACKOFF_MAX_MS = 6 * 3_600_000;

/**
 * The wait before the next call after the `streak`-th provider failure in a
 * row: exponential (60 s, 2 min, 4 min, …, at most 6 h) times a random 1–1.5,
 * so devices that failed together do not all call again at the same moment.
 */
export function backoffMs(streak: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, streak - 1));
  return Math.round(base * (1 + random() * 0.5));
}

/**
 * What the export's fetch step asks for (issue #12): read from this local
 * date (or from the device's cursor, if older) to today, only these metrics
 * (among those the device syncs). Without it: the background sync.
 */
export interface SyncRange {
  from?: string;
  metrics?: readonly string[];
  /** Stops the sync before its next provider call (the export was cancelled). */
  signal?: AbortSignal;
}

export async function syncDevice(
  ctx: AppContext,
  deviceId: number,
  range: SyncRange = {},
): Promise<DeviceSyncResult> {
  const device = await repo.findDevice(ctx.db, deviceId);
  const provider = PROVIDER_OF_LINK[device?.provider ?? 'fitbit'];
  const result: DeviceSyncResult = {
    deviceId,
    provider,
    status: 'synced',
    metrics: [],
    calls: 0,
    rowsUpserted: 0,
    errors: [],
    nextAllowedAt: null,
  };
  if (!device || device.authorization_status !== 'authorized') return { ...result, status: 'not_authorized' };
  const now = ctx.now();
  await repo.ensureState(ctx.db, deviceId);
  const state = await repo.state(ctx.db, deviceId);
  if (state?.next_allowed_at && state.next_allowed_at > now)
    return {
      ...result,
      status: 'deferred',
      nextAllowedAt: state.next_allowed_at.toISOString(),
      limited: !!state.limited_until && state.limited_until >= state.next_allowed_at,
    };

  // The API the link was authorized with (a legacy Fitbit link keeps the legacy API).
  const client = ctx.providers.links[device.provider];
  const { sync } = client;
  const metrics = (await repo.metricsFor(ctx.db, device.team_id, device.provider)).filter(
    (m) => sync.metrics.includes(m) && (!range.metrics || range.metrics.includes(m)),
  );
  result.metrics = metrics;
  if (metrics.length === 0 || !client.data) return result;
  const cursors = await repo.cursors(ctx.db, deviceId);
  const failures: GroupFailure[] = [];
  let zone: string | null = null;

  const read = backgroundReader(ctx, client, deviceId, provider, {
    onCall: () => result.calls++,
    ...(range.signal ? { signal: range.signal } : {}),
  });
  const io: SyncIO = {
    now,
    backfillDays: ctx.config.SYNC_BACKFILL_DAYS,
    read,
    async series(query, timeZone) {
      const answer = await read(query);
      if (!client.data?.toSeries) throw new Error(`${device.provider}: no series mapping`);
      return client.data.toSeries(query, answer, timeZone);
    },
    async zone() {
      zone ??= await participantZone(ctx.providers, device, now, () =>
        read({ resource: 'profile', params: {} }),
      );
      return zone;
    },
    uploadedAt: state?.provider_last_sync_at ?? null,
    cursor: (m) => fromRange(cursors.get(m) ?? { date: null, at: null }, range.from),
    ...(range.from
      ? { catchUpDays: Math.ceil((now.getTime() - Date.parse(range.from)) / 86_400_000) + 2 }
      : {}),
    async store(group) {
      result.rowsUpserted += await repo.storeGroup(ctx.db, device, group, ctx.now());
    },
    fail: (f) => failures.push(f),
    more: () => {
      result.more = true;
    },
  };

  try {
    await sync.run(io, metrics);
  } catch (err) {
    // Stopped by its caller: not a sync failure, nothing to record.
    if (range.signal?.aborted) throw err;
    if (err instanceof ProviderUnavailable) {
      // Not thrown to pg-boss: the back-off lives with the device, so every later job (the
      // 15-minute schedule's, sync-now's) waits for it too, and nothing calls again sooner.
      const streak = (state?.failure_streak ?? 0) + 1;
      const next = new Date(now.getTime() + backoffMs(streak));
      await repo.refreshHealth(ctx.db, device, now, zone);
      await repo.recordAttempt(ctx.db, deviceId, now, {
        ok: false,
        error: err.message,
        nextAllowedAt: next,
        failureStreak: streak,
      });
      return { ...result, status: 'unavailable', errors: [err.message], nextAllowedAt: next.toISOString() };
    }
    if (!(err instanceof SyncStop)) {
      await repo.recordAttempt(ctx.db, deviceId, now, { ok: false, error: describe(err) });
      throw err;
    }
    if (err.kind === 'revoked') await repo.markLinkErrored(ctx.db, deviceId, now);
    await repo.refreshHealth(ctx.db, device, now, zone);
    // A provider limit (our budget, a 429) is a wait, shown as such by sync health, not a failure.
    const limited = (err.kind === 'budget' || err.kind === 'rate_limited') && err.nextAllowedAt;
    await repo.recordAttempt(
      ctx.db,
      deviceId,
      now,
      limited
        ? { ok: 'limited', until: limited }
        : { ok: false, error: err.message, nextAllowedAt: err.nextAllowedAt },
    );
    return {
      ...result,
      status: err.kind,
      errors: [err.message],
      nextAllowedAt: err.nextAllowedAt?.toISOString() ?? null,
      limited: !!limited,
    };
  }
  result.errors = failures.map((f) => `${f.metrics.join(',')}: ${f.error}`);
  // Health figures first: whoever sees the new last success sees them with it.
  await repo.refreshHealth(ctx.db, device, now, zone);
  await repo.recordAttempt(
    ctx.db,
    deviceId,
    now,
    failures.length ? { ok: false, error: result.errors.join('; '), answered: true } : { ok: true },
  );
  return failures.length ? { ...result, status: 'partial' } : result;
}

/** A range's start as a cursor, unless the stored cursor is older (then the gap is read too). */
function fromRange(c: Cursor, from: string | undefined): Cursor {
  if (!from) return c;
  // A day before: the local date `from` starts up to 14 hours before its UTC midnight.
  const at = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000);
  return {
    ...c,
    date: c.date && c.date < from ? c.date : from,
    at: c.at && c.at < at ? c.at : at,
  };
}

function describe(err: unknown) {
  return err instanceof Error ? err.message : String(err);
}
