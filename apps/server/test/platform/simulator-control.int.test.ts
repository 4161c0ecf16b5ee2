/*
 * The simulators' control API can break every participant's link (exhaust
 * the rate limit, revoke tokens), so a default start (NODE_ENV=production)
 * does not mount it; development and test configurations, or
 * SIMULATOR_CONTROL=true, do. The fake REDCap comes with the demo
 * (SEED_DEMO, on by default) or the control API, never on a server that
 * seeds no demo and has no control API (decision 048).
 */
import { REDCAP_DEMO_TOKEN } from '@trialwear/simulators';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The fake REDCap's answer to "export project information" with the demo project's token. */
const redcapProject = (t: TestApp) =>
  t.app.inject({
    method: 'POST',
    url: '/sim/redcap/api/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: REDCAP_DEMO_TOKEN, content: 'project', format: 'json' }).toString(),
  });

const CONTROL_CALLS = [
  '/sim/dexcom/_control/exhaust-rate-limit',
  '/sim/fitbit/_control/exhaust-rate-limit',
  '/sim/fitbit/_control/expire-token',
  '/sim/omron/_control/revoke',
  '/sim/omron/_control/clock',
  '/sim/google-health/_control/exhaust-rate-limit',
  '/sim/google-health/_control/time-zone',
  '/sim/redcap/_control/projects',
];

describe('simulator control API', () => {
  it('is absent with the defaults of npm start, while the simulators themselves are served', async () => {
    const t = await createTestApp({ env: { NODE_ENV: 'production' } });
    try {
      for (const url of CONTROL_CALLS) {
        const res = await t.app.inject({ method: 'POST', url, payload: {} });
        expect(res.statusCode, url).toBe(404);
      }
      const authorize = await t.app.inject({ method: 'GET', url: '/sim/fitbit/oauth2/authorize' });
      expect(authorize.statusCode).not.toBe(404);
      // The Google Health simulator is mounted beside the simulated Fitbit (issue #13).
      const google = await t.app.inject({ method: 'GET', url: '/sim/google-health/o/oauth2/v2/auth' });
      expect(google.statusCode).toBe(200);
      expect(google.body).toContain('Missing required parameter: client_id');
      // The demo's fake REDCap (decision 048): its API with the demo project, a newcomer's to try.
      const redcap = await redcapProject(t);
      expect(redcap.statusCode, redcap.body).toBe(200);
      expect(redcap.json()).toMatchObject({ project_title: 'TrialWear demo study' });
    } finally {
      await t.close();
    }
  });

  it('a server without the demo and without the control API serves no fake REDCap', async () => {
    const t = await createTestApp({ env: { NODE_ENV: 'production', SEED_DEMO: 'false' } });
    try {
      expect((await redcapProject(t)).statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'POST', url: CONTROL_CALLS.at(-1)!, payload: {} })).statusCode,
      ).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('is mounted when SIMULATOR_CONTROL=true', async () => {
    const t = await createTestApp({ env: { NODE_ENV: 'production', SIMULATOR_CONTROL: 'true' } });
    try {
      const res = await t.app.inject({ method: 'POST', url: CONTROL_CALLS[0]!, payload: {} });
      expect(res.statusCode).toBe(200);
      const google = await t.app.inject({
        method: 'POST',
        url: '/sim/google-health/_control/exhaust-rate-limit',
        payload: {},
      });
      expect(google.statusCode).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: '/sim/google-health/_control/reset-rate-limit',
        payload: {},
      });
    } finally {
      await t.close();
    }
  });
});
