/*
 * Before every test file, in every project. Test files share their worker's modules (`isolate:
 * false` in vitest.config.ts: loading the server's module graph once per worker instead of once
 * per file took the unit and integration layers from about 590 to about 300 CPU-seconds), so what
 * one file leaves in module state would reach the next file in that worker. The simulators' device
 * overrides (wear, battery, sync stops) are the one such state, kept per process like a real
 * provider's per account: each file starts from the natural pattern, as in a process of its own.
 *
 * Passwords hashed in these test processes use argon2id's lowest cost (passwords.ts says why);
 * the processes the tests spawn (server, worker, CLI) hash at the portal's own cost.
 */
import { beforeAll } from 'vitest';
import { setPasswordHashCost, TEST_PASSWORD_HASH_COST } from './apps/server/src/features/auth/passwords.js';
import { resetFitbitDeviceState } from './packages/simulators/src/fitbit/fitbit-device-state.js';

beforeAll(() => {
  resetFitbitDeviceState();
  setPasswordHashCost(TEST_PASSWORD_HASH_COST);
});
