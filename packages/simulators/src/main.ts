/*
 * Standalone simulators: `npm run sim -w @trialwear/simulators`. Serves the
 * Fitbit simulator under /sim/fitbit on SIM_PORT (default 4010), with one
 * client whose id, secret and redirect URI come from the environment.
 */
import Fastify from 'fastify';
import { fitbitSimulator } from './fitbit/fitbit-simulator.js';

const port = Number(process.env.SIM_PORT ?? 4010);
const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
await app.register(fitbitSimulator, {
  prefix: '/sim/fitbit',
  clients: [
    {
      clientId: process.env.FITBIT_CLIENT_ID ?? 'SIMFITBIT',
      clientSecret: process.env.FITBIT_CLIENT_SECRET ?? 'sim-fitbit-secret',
      redirectUris: (process.env.FITBIT_REDIRECT_URIS ?? 'http://127.0.0.1:3000/fitbit-callback').split(','),
    },
  ],
});
const stop = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await app.listen({ port, host: process.env.SIM_HOST ?? '127.0.0.1' });
