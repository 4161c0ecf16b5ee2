/*
 * What the portal needs from each provider (Fitbit, Omron, Dexcom). A
 * ProviderClient is the only code that talks to its provider; it is built
 * once at start from configuration (real service or simulator) and reached
 * through the registry (`ctx.providers`), so routes, background jobs and the
 * CLI call providers the same way without importing HTTP code.
 */
import type { Brand, DeviceEntry, LinkProvider, Provider, Series } from '@trialwear/contract';
import type { OAuthTokenClient } from './oauth-client.js';
import type { ProviderHealth, ProviderSync } from './sync-types.js';

export type { DeviceEntry, Provider };

export interface ProviderSettings {
  simulated: boolean;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  apiUrl: string;
  redirectUri: string;
  scopes: string[];
  pkce: boolean;
  /** Further authorize parameters (Google: offline access, forced consent). */
  authorizeExtras?: Record<string, string>;
}

export interface ProviderFailure {
  ok: false;
  /** HTTP status; 0 = no answer (network). */
  status: number;
  errorType: string;
  message: string;
  /** Seconds the provider asked us to wait (429 Retry-After), when it said. */
  retryAfterSeconds?: number;
}
export type ProviderResult<T> = { ok: true; data: T } | ProviderFailure;

export interface ProviderTokens {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  providerUserId: string | null;
  /**
   * The Google Health identity's `legacyUserId`: the same person's legacy
   * Fitbit user id, used only to tell whether a Google consent is the
   * participant of an existing legacy link (google-health-api.md §2.6).
   */
  legacyUserId?: string | null;
}

/**
 * One read of provider data for a participant: an allow-listed resource and
 * its parameters (never a URL). Each reader checks the query against its own
 * allow-list before building the provider URL, so a caller cannot make it
 * call anything else.
 */
export interface DataQuery {
  resource: string;
  params: Record<string, string>;
}

/**
 * The provider's answer as received: status, the rate-limit headers it sent
 * and the parsed body. The raw pages show it as is; the data routes read `body`.
 */
export interface ProviderAnswer {
  /** The provider path called (no host, no token). */
  request: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * An answer as normalized series (contract series.ts); `records` for the
 * queries that list logs rather than values (Fitbit's activity log list, a
 * day's food log).
 */
/** What the raw page asks for (contract rawQuerySchema). */
export interface RawQuery {
  resource: string;
  since?: string;
  startDate?: string;
  endDate?: string;
}

/** A raw query the provider's allow-list refuses, with the message to show. */
export class RawQueryRefused extends Error {}

export interface SeriesSet {
  series: Series[];
  records?: unknown[];
}

export interface ProviderDataReader {
  /** The resources this provider can read (the allow-list of `DataQuery.resource`). */
  resources: readonly string[];
  /** One read, answered as the provider sent it (the raw pages show it as is). */
  read(accessToken: string, query: DataQuery): Promise<ProviderResult<ProviderAnswer>>;
  /**
   * The provider module's mapping of `read`'s answer to normalized series:
   * pure (no call), in the participant's zone where the provider answers in
   * local time (Fitbit), from the answer's own offsets otherwise (Omron,
   * Dexcom: `timeZone` null). Every consumer (data routes, overview, sync)
   * reads provider data only through it.
   */
  toSeries(query: DataQuery, answer: ProviderAnswer, timeZone: string | null): SeriesSet;
  /**
   * The raw page's query (Sys_Admin: one provider call, answered as
   * received), checked against this provider's allow-list; a refusal throws
   * RawQueryRefused with the message to show.
   */
  rawQuery(q: RawQuery, now: Date): DataQuery;
  /** The answers' dates and times are the participant's local ones (Fitbit): the raw page names the zone. */
  localTime: boolean;
}

export interface ProviderClient {
  provider: Provider;
  /**
   * What a link authorized through this client records as its provider:
   * Fitbit's two back ends ('fitbit' = legacy Web API, 'google_health') are
   * one brand with two APIs; the others are their provider.
   */
  linkProvider: LinkProvider;
  brand: Brand;
  /** The global-catalog device a new link points at. */
  catalogDevice: string;
  settings: ProviderSettings;
  /** Code exchange, refresh and revoke (revoke null: the provider has none, e.g. Dexcom). */
  oauth: OAuthTokenClient;
  devices(accessToken: string, now: Date): Promise<ProviderResult<DeviceEntry[]>>;
  /** Whether a failure means "refresh the token and try once more" (core §4). */
  needsRefresh(f: ProviderFailure): boolean;
  /** Data reading; null until the provider's resources are implemented. */
  data: ProviderDataReader | null;
}

/** A client as the registry hands it out: with its provider's sync mapping and app-wide call limit. */
export interface RegisteredClient extends ProviderClient {
  /** The background sync of this provider's metrics (providers/<p>/sync.ts). */
  sync: ProviderSync;
  /** Sync calls per hour the provider allows the whole app (0: none; Fitbit's limit is per user only). */
  appCallsPerHour: number;
  /** The study-health measure of this provider's devices (providers/<p>/health.ts). */
  health: ProviderHealth;
}
