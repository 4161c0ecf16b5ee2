/*
 * Google Health API notifications (issue #13 item 4; google-health-api.md §5).
 * Google POSTs to a registered "subscriber" endpoint:
 *
 * - the verification handshake: `{"type":"verification"}` twice, once with
 *   `Authorization` set to the secret registered with the subscriber (we
 *   answer 201) and once without (we answer 401) — so the endpoint checks
 *   the secret before anything else (§5.2);
 * - notifications: a JSON array of `{data:{healthUserId, dataType,
 *   operation, intervals}}`, notify-only. Authentic when `Authorization`
 *   is the secret, or, with GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY set, when the
 *   ECDSA P-256 signature header (GOOGLE-HEALTH-API-SIGNATURE, formerly
 *   X-HEALTHAPI-SIGNATURE) verifies over the raw body; with the key set, a
 *   signature that does not verify is refused even with the secret.
 *
 * For each notification, the authorized Google Health links of the user get
 * the sync cursors of the notified data type's metrics moved back to the
 * interval's first local date, and one device-sync job (the existing job:
 * singleton per device, so a burst of notifications is one sync). Polling
 * every 15 minutes stays the fallback. The answer is 200 as soon as the
 * notifications are authentic, even when one could not be scheduled:
 * Google disables endpoints that fail (§5.3), and polling catches up.
 */
import { createPublicKey, createVerify, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { deviceSync } from '../../jobs/device-sync/job.js';
import { enqueue } from '../../jobs/job-definition.js';
import * as repo from './repo.js';

/** Google Health data type → the stored metric keys its changes touch (the Fitbit sync's keys). */
const METRICS_OF: Record<string, readonly string[]> = {
  steps: ['steps'],
  distance: ['distance'],
  floors: ['floors'],
  'total-calories': ['calories'],
  'active-energy-burned': ['calories'],
  'activity-level': [
    'minutes_sedentary',
    'minutes_lightly_active',
    'minutes_fairly_active',
    'minutes_very_active',
  ],
  'daily-resting-heart-rate': ['resting_heart_rate'],
  sleep: ['sleep_duration', 'sleep_stages'],
  weight: ['weight', 'bmi'],
  'body-fat': ['body_fat'],
  height: ['bmi'],
  'daily-oxygen-saturation': ['spo2'],
  'heart-rate': ['heart_rate_intraday'],
  'daily-heart-rate-variability': ['hrv'],
  'heart-rate-variability': ['hrv_intraday'],
  'daily-respiratory-rate': ['breathing_rate'],
  'daily-sleep-temperature-derivations': ['skin_temperature'],
  'daily-vo2-max': ['cardio_score'],
};

export type WebhookOutcome =
  | { status: 201; kind: 'verified' }
  | { status: 401 | 403; kind: 'refused' }
  | { status: 400; kind: 'malformed' }
  | { status: 404; kind: 'disabled' }
  | { status: 200; kind: 'notified'; notifications: number; syncs: number };

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Whether the ECDSA P-256 (SHA-256) signature, base64 (DER or raw r‖s), verifies over the body. */
export function signatureValid(publicKeyPem: string, body: Buffer, signature: string): boolean {
  try {
    const key = createPublicKey(publicKeyPem);
    const sig = Buffer.from(signature, 'base64');
    const verify = (dsaEncoding: 'der' | 'ieee-p1363') =>
      createVerify('sha256').update(body).verify({ key, dsaEncoding }, sig);
    return verify(sig.length === 64 ? 'ieee-p1363' : 'der');
  } catch {
    return false;
  }
}

interface Notification {
  data?: {
    healthUserId?: unknown;
    dataType?: unknown;
    operation?: unknown;
    intervals?: Array<{
      civilIso8601TimeInterval?: unknown;
      civilDateTimeInterval?: { startTime?: unknown };
      physicalTimeInterval?: { startTime?: unknown };
    }>;
  };
}

/** The first local date a notification's intervals touch (null: none given). */
function firstDate(n: Notification): string | null {
  const dates: string[] = [];
  for (const i of n.data?.intervals ?? []) {
    const text =
      (typeof i.civilIso8601TimeInterval === 'string' && i.civilIso8601TimeInterval) ||
      (typeof i.civilDateTimeInterval?.startTime === 'string' && i.civilDateTimeInterval.startTime) ||
      // A physical instant: its UTC date is at most a day off the local one; the day before covers it.
      (typeof i.physicalTimeInterval?.startTime === 'string' &&
        new Date(Date.parse(i.physicalTimeInterval.startTime) - 86_400_000).toISOString()) ||
      '';
    const m = /^(\d{4}-\d{2}-\d{2})/.exec(text);
    if (m) dates.push(m[1]!);
  }
  return dates.sort()[0] ?? null;
}

export async function receiveNotification(
  ctx: AppContext,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
): Promise<WebhookOutcome> {
  const secret = ctx.config.GOOGLE_HEALTH_WEBHOOK_SECRET;
  const publicKey = ctx.config.GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY;
  if (!secret && !publicKey) return { status: 404, kind: 'disabled' };
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const authorization = header('authorization');
  const secretOk = !!secret && !!authorization && same(authorization, secret);
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return secretOk ? { status: 400, kind: 'malformed' } : { status: 401, kind: 'refused' };
  }
  if (
    body &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    (body as { type?: unknown }).type === 'verification'
  )
    return secretOk ? { status: 201, kind: 'verified' } : { status: 401, kind: 'refused' };

  const signature = header('google-health-api-signature') ?? header('x-healthapi-signature');
  if (publicKey) {
    const signed = !!signature && signatureValid(publicKey, rawBody, signature);
    if (!signed && (signature || !secretOk)) return { status: 403, kind: 'refused' };
  } else if (!secretOk) return { status: 401, kind: 'refused' };
  if (!Array.isArray(body)) return { status: 400, kind: 'malformed' };

  let syncs = 0;
  for (const n of body as Notification[]) {
    const userId = n?.data?.healthUserId;
    if (typeof userId !== 'string' || !/^[A-Za-z0-9-]{1,63}$/.test(userId)) continue;
    const dataType = typeof n.data?.dataType === 'string' ? n.data.dataType : '';
    const from = firstDate(n);
    try {
      for (const link of await repo.linksOfHealthUser(ctx.db, userId)) {
        if (from) await repo.rewindCursors(ctx.db, link.id, METRICS_OF[dataType] ?? [], from);
        if (ctx.boss && (await enqueue(ctx.boss, deviceSync, { deviceId: link.id }))) syncs++;
      }
    } catch {
      // Polling picks the change up; Google must not see a failure (it would disable the endpoint).
    }
  }
  return { status: 200, kind: 'notified', notifications: body.length, syncs };
}
