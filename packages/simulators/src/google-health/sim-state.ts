/*
 * What one Google Health simulator instance holds: its configuration (the
 * token policy follows it), the OAuth store, the people, the per-user
 * request counts of the rate limit, and the failures injected by the
 * control API. The control API's reset brings it back to the start; tokens
 * stay.
 */
import type { SimClock } from '../clock.js';
import { OAuthStore } from '../oauth/oauth-store.js';
import { DEFAULT_CONFIG, type GoogleHealthConfig } from './gh-config.js';
import { People } from './person.js';

export interface InjectedFailure {
  count: number;
  status: number;
  retryAfterSeconds?: number;
}

export class SimState {
  config: GoogleHealthConfig;
  readonly store: OAuthStore;
  readonly people = new People();
  /** Requests per user in the current minute. */
  readonly usage = new Map<string, { minute: number; count: number }>();
  /** userId or '*' → the minute used up (control API). */
  readonly exhausted = new Map<string, number>();
  failNext: InjectedFailure = { count: 0, status: 500 };

  constructor(
    readonly clock: SimClock,
    /** The legacy Fitbit client whose users are the same people (a consent state gives the same person). */
    readonly legacyClientId: string,
    private readonly initialConfig: Partial<GoogleHealthConfig> = {},
  ) {
    this.config = { ...DEFAULT_CONFIG, ...initialConfig };
    this.store = new OAuthStore(clock, this.config.accessTokenSeconds, 'google', {
      access: 'ya29.',
      refresh: '1//0g',
    });
    this.applyConfig();
  }

  setConfig(patch: Partial<GoogleHealthConfig>) {
    this.config = { ...this.config, ...patch };
    this.applyConfig();
  }

  /** Configuration, people (zones, identity, devices), rate limits and failures back to the start. */
  reset() {
    this.config = { ...DEFAULT_CONFIG, ...this.initialConfig };
    this.applyConfig();
    this.people.reset();
    this.exhausted.clear();
    this.usage.clear();
    this.failNext = { count: 0, status: 500 };
  }

  /** The token lifetimes and refresh-token policy of the configuration (non-rotating refresh tokens). */
  private applyConfig() {
    const config = this.config;
    this.store.setAccessTtl(config.accessTokenSeconds);
    this.store.refreshPolicy = {
      rotate: false,
      maxPerUser: config.refreshTokensPerUser,
      idleMs: config.refreshTokenIdleDays * 86_400_000,
      ...(config.testingMode && { maxAgeMs: 7 * 86_400_000 }),
    };
  }
}
