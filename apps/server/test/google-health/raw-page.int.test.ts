/*
 * The Sys_Admin raw page of a participant whose Fitbit reads through the
 * Google Health API (issue #26): the provider's own answer for the call shown
 * — Google's requests and bodies as received — never the legacy Fitbit Web
 * API's shape ('activities-steps') the data pages once converted it into.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('raw page through the Google Health API', () => {
  let t: TestApp;
  let a: TeamFixture;
  let pid: number;

  beforeAll(async () => {
    // FITBIT_API unset: the default, Google Health.
    t = await createTestApp({ listen: true, env: { FITBIT_API: '' } });
    a = await teamWithRoles(t, 'Google raw', { hiddenFields: [] });
    const { ids } = await trialWithParticipants(a, 'Google raw', ['raw@google.example']);
    pid = ids[0]!;
    await linkParticipant(t, a, pid, 'fitbit');
  });
  afterAll(() => t?.close());

  it("shows Google's requests and bodies as received, not a legacy-shaped body", async () => {
    const link = await t.ctx.db
      .selectFrom('participant_devices')
      .select('provider')
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    expect(link.provider).toBe('google_health');
    const path = '/activities/steps/date/2026-03-01/2026-03-02.json';
    const res = await a.as.Sys_Admin.get(
      `/api/participantRaw/${pid}/fitbit?resource=${encodeURIComponent(path)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const raw = res.json();
    expect(raw.status).toBe(200);
    const text = JSON.stringify(raw.body);
    expect(text).not.toContain('activities-steps');
    const calls = (raw.body as { calls: Array<{ request: string; body: unknown }> }).calls;
    expect(calls.length).toBeGreaterThan(0);
    // The day's totals of steps: Google's daily roll-up (google-health-api.md §6), its body as sent.
    expect(calls.map((c) => c.request)).toEqual(['POST /v4/users/me/dataTypes/steps/dataPoints:dailyRollUp']);
    expect(calls[0]!.body).toBeTypeOf('object');
  });
});
