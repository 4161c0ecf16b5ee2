/*
 * Google Health API (v4) simulator (google-health-api.md): Google OAuth
 * (/o/oauth2/v2/auth, /token, /revoke, /oauth2/v3/userinfo), the v4 REST
 * surface the portal needs (api/), the per-user rate limit, the standard
 * Google error bodies, and a control API. The simulated people are the
 * legacy Fitbit simulator's (person.ts): same consent state, same person,
 * same values. Mount it under a prefix (the portal uses
 * /sim/google-health) and point a client's accounts.google.com,
 * oauth2.googleapis.com and health.googleapis.com base URLs at it.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { SimClock } from '../clock.js';
import { CallCounter } from '../oauth/control-routes.js';
import type { OAuthClient } from '../oauth/oauth-store.js';
import { registerDataPointRoutes } from './api/data-point-routes.js';
import { registerProfileRoutes } from './api/profile-routes.js';
import { registerRollUpRoutes } from './api/roll-up-routes.js';
import { routeKit } from './api/route-kit.js';
import { registerGoogleHealthControl } from './control-api.js';
import { useGoogleErrors } from './error-envelope.js';
import type { GoogleHealthConfig } from './gh-config.js';
import { dataCallGuard, projectGuard } from './request-guard.js';
import { registerSignInRoutes } from './sign-in-routes.js';
import { SimState } from './sim-state.js';
import { Webhooks } from './webhooks.js';

/** Where the portal mounts it. */
export const GOOGLE_HEALTH_SIM_PREFIX = '/sim/google-health';
/** The OAuth client the portal registers with its simulator (Google client ids end so). */
export const GOOGLE_HEALTH_SIM_CLIENT_ID = 'trialwear-sim.apps.googleusercontent.com';

export interface GoogleHealthSimulatorOptions {
  clients: OAuthClient[];
  /** Mount the control API (/_control/...): development and tests only. */
  control?: boolean;
  clock?: SimClock;
  /**
   * The legacy Fitbit (simulator) client id whose simulated users are the
   * same people: a consent with the same state signs in as the Google user
   * of that Fitbit user. Default: this simulator's first client id.
   */
  legacyFitbitClientId?: string;
  /** The open questions of the reference (gh-config.ts); defaults in DEFAULT_CONFIG. */
  config?: Partial<GoogleHealthConfig>;
}

export async function googleHealthSimulator(app: FastifyInstance, opts: GoogleHealthSimulatorOptions) {
  const clock = opts.clock ?? new SimClock();
  const legacyClientId = opts.legacyFitbitClientId ?? opts.clients[0]?.clientId ?? 'SIMFITBIT';
  const state = new SimState(clock, legacyClientId, opts.config);

  await app.register(formbody);
  useGoogleErrors(app);

  const calls = new CallCounter(state.store);
  if (opts.control === true) app.addHook('onRequest', calls.hook);

  registerSignInRoutes(app, state, opts.clients);

  const kit = routeKit({ clock, config: () => state.config, guard: dataCallGuard(state) });
  registerProfileRoutes(app, kit);
  registerDataPointRoutes(app, kit);
  registerRollUpRoutes(app, kit);

  // Webhook subscribers (project level, a service account's cloud-platform token).
  const webhooks = new Webhooks({
    clock,
    store: state.store,
    people: state.people,
    config: () => state.config,
  });
  webhooks.register(app, projectGuard(state.store));

  registerGoogleHealthControl(app, { enabled: opts.control === true, state, calls, webhooks });
}
