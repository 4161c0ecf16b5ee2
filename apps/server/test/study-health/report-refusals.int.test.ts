/*
 * The compliance report's refusals (issue #23 item 7, decision 034): the
 * route in the OpenAPI document, its query's messages, and its scope — a User
 * not on the trial and another team get the trial's 404, a Viewer of the
 * trial 403 (no exports for Viewers), audited, with nothing downloaded. The
 * report's numbers are report.int.test.ts's.
 */
import { STUDY_HEALTH_MESSAGES as M, TRIAL_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows } from '../support/audit.js';
import { healthTeam } from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { until } from '../support/until.js';

const clock = testClock('2026-03-10T05:00:00Z');

describe('study health compliance report: refusals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t.close());

  const reportUrl = (trialId: number, query: string) => `/api/studyHealth/trials/${trialId}/report${query}`;

  it('is in the OpenAPI document with its query', async () => {
    const doc = (await t.client().get('/api/docs/json')).json();
    const op = doc.paths['/api/studyHealth/trials/{trialId}/report']?.get;
    expect(op?.tags).toEqual(['study health']);
    const params = (op.parameters as { in: string; name: string; schema?: { enum?: string[] } }[]).filter(
      (p) => p.in === 'query',
    );
    expect(params.map((p) => p.name).sort()).toEqual(['format', 'from', 'to']);
    expect(params.find((p) => p.name === 'format')?.schema?.enum).toEqual(['csv', 'xlsx']);
  });

  it('validation: the format, and the table’s date rules with their messages', async () => {
    const h = await healthTeam(t);
    for (const [query, message] of [
      ['', M.reportFormat],
      ['?format=pdf', M.reportFormat],
      ['?format=csv&from=2026-03-10&to=2026-03-01', M.rangeOrder],
      ['?format=csv&from=2026-01-01&to=2026-04-01', M.rangeTooLong],
      ['?format=xlsx&to=2026-02-30', M.dateInvalid],
      ['?format=csv&from=2026-03-01&to=2026-06-30', M.rangeTooLong],
    ] as const) {
      const res = await h.team.as.User.get(reportUrl(h.trialId, query));
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBe(message);
    }
    const ok = await h.team.as.User.get(reportUrl(h.trialId, '?format=csv&from=2026-01-01&to=2026-03-31'));
    expect(ok.statusCode, ok.body).toBe(200);
    // No participants: the header alone.
    expect(ok.rawPayload.toString('utf8').slice(1).split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('a User not on the trial and another team get 404; a Viewer of the trial is refused (403), audited', async () => {
    const h = await healthTeam(t);
    const stranger = await healthTeam(t, 'Stranger');
    for (const [client, id] of [
      [h.team.as.User, h.otherTrialId],
      [stranger.team.as.Admin, h.trialId],
      [stranger.team.as.Sys_Admin, h.trialId],
      [h.team.as.Admin, 2_000_000_000],
    ] as const) {
      const res = await client.get(reportUrl(id, '?format=csv'));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(TRIAL_MESSAGES.notFound);
    }
    const viewer = await h.team.as.Viewer.get(reportUrl(h.trialId, '?format=csv'));
    expect(viewer.statusCode, viewer.body).toBe(403);
    expect(viewer.headers['content-disposition']).toBeUndefined();
    const denied = async () =>
      (await auditRows(t.ctx.db, 'access.denied', ['user_id', 'entity_id'])).filter(
        (r) => r.user_id === h.team.userIds.Viewer,
      );
    await until(async () => (await denied()).length > 0, 'the Viewer’s refusal in the audit log');
    expect(await denied()).toEqual([
      { user_id: h.team.userIds.Viewer, entity_id: 'GET /api/studyHealth/trials/:trialId/report' },
    ]);
    const downloads = (await auditRows(t.ctx.db, 'study_health.report.downloaded', ['team_id'])).filter(
      (r) => r.team_id === h.team.teamId || r.team_id === stranger.team.teamId,
    );
    expect(downloads).toEqual([]);
  });
});
