/*
 * Standalone simulators: `npm run sim -w @trialwear/simulators`. Serves the
 * Fitbit, Google Health, Omron and Dexcom simulators under /sim/<provider>, and the
 * fake REDCap (its demo project) under /sim/redcap, on SIM_PORT
 * (default 4010), each with one client whose id, secret and redirect URIs
 * come from the environment. The control API (/_control/...) is on unless
 * SIMULATOR_CONTROL=false: this standalone server is a development tool.
 */
import Fastify from 'fastify';
import { dexcomSimulator } from './dexcom/dexcom-simulator.js';
import { fitbitSimulator } from './fitbit/fitbit-simulator.js';
import {
  GOOGLE_HEALTH_SIM_CLIENT_ID,
  googleHealthSimulator,
} from './google-health/google-health-simulator.js';
import { omronSimulator } from './omron/omron-simulator.js';
import { REDCAP_DEMO_PROJECT } from './redcap/redcap-demo.js';
import { redcapSimulator } from './redcap/redcap-simulator.js';

const port = Number(process.env.SIM_PORT ?? 4010);
const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
const control = process.env.SIMULATOR_CONTROL !== 'false';
await app.register(fitbitSimulator, {
  prefix: '/sim/fitbit',
  control,
  clients: [
    {
      clientId: process.env.FITBIT_CLIENT_ID ?? 'SIMFITBIT',
      clientSecret: process.env.FITBIT_CLIENT_SECRET ?? 'sim-fitbit-secret',
      redirectUris: (process.env.FITBIT_REDIRECT_URIS ?? 'http://127.0.0.1:3000/fitbit-callback').split(','),
    },
  ],
});
await app.register(googleHealthSimulator, {
  prefix: '/sim/google-health',
  control,
  // The same people as the Fitbit simulator above.
  legacyFitbitClientId: process.env.FITBIT_CLIENT_ID ?? 'SIMFITBIT',
  clients: [
    {
      clientId: process.env.GOOGLE_HEALTH_CLIENT_ID ?? GOOGLE_HEALTH_SIM_CLIENT_ID,
      clientSecret: process.env.GOOGLE_HEALTH_CLIENT_SECRET ?? 'sim-google-health-secret',
      redirectUris: (
        process.env.GOOGLE_HEALTH_REDIRECT_URIS ?? 'http://127.0.0.1:3000/fitbit-callback'
      ).split(','),
    },
  ],
});
await app.register(omronSimulator, {
  prefix: '/sim/omron',
  control,
  clients: [
    {
      clientId: process.env.OMRON_CLIENT_ID ?? 'SIMOMRON',
      clientSecret: process.env.OMRON_CLIENT_SECRET ?? 'sim-omron-secret',
      redirectUris: (process.env.OMRON_REDIRECT_URIS ?? 'http://127.0.0.1:3000/omron-callback').split(','),
    },
  ],
});
await app.register(dexcomSimulator, {
  prefix: '/sim/dexcom',
  control,
  clients: [
    {
      clientId: process.env.DEXCOM_CLIENT_ID ?? 'SIMDEXCOM',
      clientSecret: process.env.DEXCOM_CLIENT_SECRET ?? 'sim-dexcom-secret',
      redirectUris: (process.env.DEXCOM_REDIRECT_URIS ?? 'http://127.0.0.1:3000/dexcom-callback').split(','),
    },
  ],
});
await app.register(redcapSimulator, { prefix: '/sim/redcap', control, projects: [REDCAP_DEMO_PROJECT] });
const stop = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await app.listen({ port, host: process.env.SIM_HOST ?? '127.0.0.1' });
