/*
 * The fake REDCap (packages/simulators/src/redcap) as the tests use it: over
 * real loopback HTTP on the test app's own port (createTestApp({ listen:
 * true })), a project per test made through its control API, its records
 * read back the same way.
 */
import { randomBytes } from 'node:crypto';
import { REDCAP_DEMO_PROJECT, type RedcapProjectSeed, type RedcapRow } from '@trialwear/simulators';
import type { TestApp } from './test-app.js';

export const newRedcapToken = () => randomBytes(16).toString('hex').toUpperCase();

/** A classic project: enrolment form (record_id, email), the repeating `wearable_daily` instrument. */
export function dailyProject(overrides: Partial<RedcapProjectSeed> = {}): RedcapProjectSeed {
  return {
    project_title: 'Wearables study',
    // The demo project's dictionary: record_id, email; wearable_daily with summary_date and the metrics.
    metadata: REDCAP_DEMO_PROJECT.metadata,
    repeating: [{ form_name: 'wearable_daily' }],
    tokens: [{ token: newRedcapToken() }],
    ...overrides,
  };
}

export function fakeRedcap(t: TestApp) {
  const base = `${t.ctx.config.publicUrl}/sim/redcap`;
  const json = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: init?.body ? { 'content-type': 'application/json' } : {},
    });
    if (!res.ok) throw new Error(`fake REDCap ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    apiUrl: `${base}/api/`,
    /** Makes the project; answers its id and its (first) token. */
    async project(seed: RedcapProjectSeed) {
      const { project_id } = (await json('/_control/projects', {
        method: 'POST',
        body: JSON.stringify(seed),
      })) as {
        project_id: number;
      };
      return { projectId: project_id, token: seed.tokens[0]!.token };
    },
    records: (projectId: number) => json(`/_control/projects/${projectId}/records`) as Promise<RedcapRow[]>,
    failNext: (count: number, status = 500) =>
      json('/_control/fail-next', { method: 'POST', body: JSON.stringify({ count, status }) }),
    calls: async () => ((await json('/_control/calls')) as { calls: number }).calls,
  };
}

/** Settings for dailyProject() with every metric the project has a field for. */
export const dailySettings = (apiUrl: string, token: string) => ({
  apiUrl,
  token,
  recordIdField: 'record_id',
  emailField: 'email',
  instrument: 'wearable_daily',
  dateField: 'summary_date',
  fieldMap: {
    steps: 'steps',
    resting_heart_rate: 'resting_hr',
    sleep_minutes: 'sleep_min',
    wear_minutes: 'wear_min',
    mean_glucose: 'glucose_mean',
  },
  pushEnabled: true,
});
