/*
 * Providers without credentials are served by their simulators on this
 * server (/sim/fitbit, /sim/omron, /sim/dexcom, and /sim/google-health
 * beside the simulated Fitbit: the same people through the Google Health
 * API), reached over real HTTP like the real services, so the whole product
 * works offline. The fake REDCap (/sim/redcap/api/, issue #25 item 3) has no
 * real-service switch — a trial names its REDCap's URL — so it comes with the
 * demo: on a server that seeds it (SEED_DEMO, `npm start`'s default, so that
 * a newcomer can try the REDCap section) and where the control API is
 * (development and tests), with its demo project (decision 048).
 */
import {
  dexcomSimulator,
  fitbitSimulator,
  GOOGLE_HEALTH_SIM_PREFIX,
  googleHealthSimulator,
  omronSimulator,
  REDCAP_DEMO_PROJECT,
  REDCAP_SIM_PREFIX,
  redcapSimulator,
} from '@trialwear/simulators';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { DEXCOM_SIM_PREFIX } from '../providers/dexcom/dexcom-client.js';
import { FITBIT_SIM_PREFIX } from '../providers/fitbit/fitbit-client.js';
import { OMRON_SIM_PREFIX } from '../providers/omron/omron-client.js';
import { registerSimulatorGrant } from '../providers/simulator-grants.js';
import type { ProviderSettings } from '../providers/types.js';

export async function mountSimulators(app: FastifyInstance, ctx: AppContext) {
  const client = (s: ProviderSettings) => [
    { clientId: s.clientId, clientSecret: s.clientSecret, redirectUris: [s.redirectUri] },
  ];
  // The control API breaks links on purpose: never on a default `npm start` (NODE_ENV=production).
  const control = ctx.config.simulatorControl;
  // Both Fitbit back ends: new links use the one FITBIT_API names, older links keep theirs.
  const { fitbit, google_health: googleHealth, omron, dexcom } = ctx.providers.links;
  if (fitbit.settings.simulated)
    await app.register(fitbitSimulator, {
      prefix: FITBIT_SIM_PREFIX,
      clients: client(fitbit.settings),
      control,
      // The demo seed's participants are linked with these (providers/simulator-grants.ts).
      onGrant: (grant) => registerSimulatorGrant(ctx.providers, 'fitbit', grant),
    });
  if (googleHealth.settings.simulated)
    await app.register(googleHealthSimulator, {
      prefix: GOOGLE_HEALTH_SIM_PREFIX,
      clients: client(googleHealth.settings),
      // A participant's Google user is the same person as their simulated legacy Fitbit user.
      legacyFitbitClientId: fitbit.settings.clientId,
      control,
    });
  if (omron.settings.simulated)
    await app.register(omronSimulator, {
      prefix: OMRON_SIM_PREFIX,
      clients: client(omron.settings),
      control,
      onGrant: (grant) => registerSimulatorGrant(ctx.providers, 'omron', grant),
    });
  if (dexcom.settings.simulated)
    await app.register(dexcomSimulator, {
      prefix: DEXCOM_SIM_PREFIX,
      clients: client(dexcom.settings),
      control,
      onGrant: (grant) => registerSimulatorGrant(ctx.providers, 'dexcom', grant),
    });
  if (control || ctx.config.SEED_DEMO)
    await app.register(redcapSimulator, {
      prefix: REDCAP_SIM_PREFIX,
      control,
      projects: [REDCAP_DEMO_PROJECT],
    });
}
