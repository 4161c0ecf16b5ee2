/*
 * Providers without credentials are served by their simulators on this
 * server (/sim/fitbit, /sim/omron, /sim/dexcom), reached over real HTTP like
 * the real services, so the whole product works offline.
 */
import { dexcomSimulator, fitbitSimulator, omronSimulator } from '@trialwear/simulators';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { DEXCOM_SIM_PREFIX, dexcomAdapter } from '../dexcom/dexcom-adapter.js';
import { FITBIT_SIM_PREFIX, fitbitAdapter } from '../fitbit/fitbit-adapter.js';
import { OMRON_SIM_PREFIX, omronAdapter } from '../omron/omron-adapter.js';

export async function registerSimulators(app: FastifyInstance, ctx: AppContext) {
  const client = (s: ReturnType<typeof fitbitAdapter.settings>) => [
    { clientId: s.clientId, clientSecret: s.clientSecret, redirectUris: [s.redirectUri] },
  ];
  const fitbit = fitbitAdapter.settings(ctx);
  if (fitbit.simulated)
    await app.register(fitbitSimulator, { prefix: FITBIT_SIM_PREFIX, clients: client(fitbit) });
  const omron = omronAdapter.settings(ctx);
  if (omron.simulated)
    await app.register(omronSimulator, { prefix: OMRON_SIM_PREFIX, clients: client(omron) });
  const dexcom = dexcomAdapter.settings(ctx);
  if (dexcom.simulated)
    await app.register(dexcomSimulator, { prefix: DEXCOM_SIM_PREFIX, clients: client(dexcom) });
}
