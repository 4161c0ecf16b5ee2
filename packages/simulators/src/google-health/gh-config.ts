/*
 * What the reference leaves open or reports in conflicting ways
 * (google-health-api.md §7, marked ⚠ or [I]) is configuration: each choice
 * below names its section and why its default was chosen. Set at mount
 * (`config`) or at run time (POST /_control/config).
 */
export interface GoogleHealthConfig {
  /** §2.4: access-token lifetime (expires_in). */
  accessTokenSeconds: number;
  /** §2.4 [I]: refresh tokens per user and client before the oldest dies silently (sources: 25/50/100). */
  refreshTokensPerUser: number;
  /** §2.4: a refresh token unused this many days dies (6 months). */
  refreshTokenIdleDays: number;
  /** §2.4: OAuth app in "Testing" status with an external audience: refresh tokens die after 7 days. */
  testingMode: boolean;
  /** §2.5, §7.8: also accept the older suffix-less read-write scope names (`…activity_and_fitness`). */
  acceptLegacyScopeNames: boolean;
  /** §3.3, §7.4: list page size when none is sent: 1440 (proto, observed) or 50 (one report). */
  listDefaultPageSize: number;
  /** §3.3, §7.7: `floors` list is refused live; the proto has the payload. */
  floorsList: boolean;
  /** §3.5, §7.6: activity-level roll-ups: in the proto, not on the data-types page. */
  activityLevelRollUps: boolean;
  /** §3.6, §7.2: dailyRollUp maximum range: 'proto' (14 days for some types, 90 for the rest) or 14 for all (live). */
  dailyRollUpMaxDays: 'proto' | 14;
  /** §3.6, §7.3: `pageSize` on dailyRollUp: documented in the proto, refused live ("Invalid argument"). */
  dailyRollUpAcceptsPageSize: boolean;
  /** §4.3: requests per user per minute before 429. */
  requestsPerUserPerMinute: number;
  /** §4.3, §7.11: Retry-After on a 429 (undocumented; Google front ends normally send none). */
  retryAfterOn429: boolean;
  /**
   * §3.3 [V obs.]: a list page scans at most this many days of data; when
   * it found nothing it still answers, empty, with a nextPageToken (as
   * observed live), so clients must page until the token is absent.
   */
  listScanDays: number;
  /** §6 #13 [V obs.]: oxygen-saturation samples contain sentinel values (exactly 50 %). */
  spo2SentinelSamples: boolean;
  /**
   * §3.3 [V obs.]: a second source (the phone) in steps lists, overlapping
   * the tracker's minutes; reconcile and the roll-ups merge them, so the
   * daily total is unchanged. Off by default: the legacy person has no phone source.
   */
  phoneSteps: boolean;
  /**
   * §3.10 [V obs.]: sleep stages are computed after waking; for this many
   * minutes after a sleep ends it is `processed: false` without stages.
   * Off (0) by default: the legacy simulator has the stages at once.
   */
  sleepProcessingMinutes: number;
  /** §5.2, §7.5: the verification probe with the secret must answer 201 (proto) or any 2xx (accepted in practice). */
  verificationSuccessStatus: 201 | '2xx';
  /** §5.3, §7.5: the `operation` of a change: UPSERT (open-wearables) or UPDATE (one observed payload). */
  notificationOperation: 'UPSERT' | 'UPDATE';
  /** §5.3, §7.5: whether notifications carry the registered Authorization (reported missing once). */
  notificationAuthorization: boolean;
  /** §5.3: the signature header's name, renamed in 2026-07; both by default. */
  signatureHeader: 'both' | 'GOOGLE-HEALTH-API-SIGNATURE' | 'X-HEALTHAPI-SIGNATURE';
}

export const DEFAULT_CONFIG: GoogleHealthConfig = {
  accessTokenSeconds: 3599,
  refreshTokensPerUser: 50,
  refreshTokenIdleDays: 183,
  testingMode: false,
  acceptLegacyScopeNames: true,
  listDefaultPageSize: 1440,
  floorsList: false,
  activityLevelRollUps: true,
  dailyRollUpMaxDays: 14,
  dailyRollUpAcceptsPageSize: false,
  requestsPerUserPerMinute: 300,
  retryAfterOn429: false,
  listScanDays: 31,
  spo2SentinelSamples: true,
  phoneSteps: false,
  sleepProcessingMinutes: 0,
  verificationSuccessStatus: '2xx',
  notificationOperation: 'UPSERT',
  notificationAuthorization: true,
  signatureHeader: 'both',
};
