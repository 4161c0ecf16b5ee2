/*
 * Enrolling from REDCap (issue #25 item 3, decision 048) against the fake
 * REDCap: records become participants (record id = code suffix, optional
 * email), previewed with the add call's own messages and the team's limit
 * (checkNewParticipants), applied in one transaction or not at all; an
 * enrolled record with a new email is an update; scope and roles.
 */
import { PARTICIPANT_MESSAGES, REDCAP_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows } from '../support/audit.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { trialWithParticipants } from '../support/linked-participant.js';
import { dailyProject, dailySettings, fakeRedcap } from '../support/redcap.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let b: TeamFixture;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  b = await teamWithRoles(t, 'Redcap enrol stranger');
}, 60_000);
afterAll(() => t?.close());

/** A team of its own (limits differ per test), a trial connected to a project holding `records`. */
async function world(
  records: Record<string, string>[],
  team: { maxParticipants?: number; hiddenFields?: ('email' | 'notes')[] } = {},
) {
  const a = await teamWithRoles(t, `Redcap enrol ${Math.random().toString(36).slice(2, 8)}`, {
    hiddenFields: [],
    ...team,
  });
  const { trialId } = await trialWithParticipants(a, 'Enrol', []);
  const redcap = fakeRedcap(t);
  // The email field without REDCap's own email validation: a typo reaches the portal's rules.
  const seed = dailyProject({ records });
  seed.metadata = seed.metadata.map((f) =>
    f.field_name === 'email' ? { ...f, text_validation_type_or_show_slider_number: '' } : f,
  );
  const { token } = await redcap.project(seed);
  const saved = await a.as.Admin.put(`/api/trials/${trialId}/redcap`, dailySettings(redcap.apiUrl, token));
  expect(saved.statusCode, saved.body).toBe(200);
  const { trial_code: code } = await t.ctx.db
    .selectFrom('trials')
    .select('trial_code')
    .where('id', '=', trialId)
    .executeTakeFirstOrThrow();
  return { a, trialId, code, url: (tail: string) => `/api/trials/${trialId}/redcap/enrol/${tail}` };
}

const participants = (trialId: number) =>
  t.ctx.db
    .selectFrom('participants')
    .select(['participant_code', 'email'])
    .where('trial_id', '=', trialId)
    .orderBy('participant_code')
    .execute();

describe('enrolling participants from REDCap', () => {
  it("previews each record's verdict with the add call's messages and applies it in one transaction", async () => {
    const w = await world([
      { record_id: '101', email: 'r101@enrol.example' },
      { record_id: '102', email: 'not-an-email' },
      { record_id: '103', email: '' },
      { record_id: '1-04', email: 'r104@enrol.example' },
      { record_id: '105', email: 'r101@enrol.example' },
      { record_id: '106', email: 'R106@enrol.example' },
      { record_id: '107', email: 'old@enrol.example' },
      { record_id: '108', email: 'OLD@enrol.example' },
    ]);
    // 106 exists with the same email (any case), 107 with another: unchanged and update.
    for (const [codeSuffix, email] of [
      ['106', 'r106@enrol.example'],
      ['107', 'older@enrol.example'],
    ])
      expect(
        (await w.a.as.Admin.post('/api/trialParticipants', { trialId: w.trialId, email, codeSuffix }))
          .statusCode,
      ).toBe(200);
    const preview = await w.a.as.User.post(w.url('preview'));
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    expect(
      p.rows.map(
        (r: { recordId: string; verdict: string; errors: unknown[]; participantCode: string | null }) => [
          r.recordId,
          r.verdict,
          r.participantCode,
          r.errors,
        ],
      ),
    ).toEqual([
      // REDCap lists records in its natural order.
      ['1-04', 'refused', null, [{ path: 'codeSuffix', message: PARTICIPANT_MESSAGES.suffixRule }]],
      ['101', 'create', `${w.code}-101`, []],
      ['102', 'refused', `${w.code}-102`, [{ path: 'email', message: PARTICIPANT_MESSAGES.emailInvalid }]],
      ['103', 'refused', `${w.code}-103`, [{ path: 'email', message: PARTICIPANT_MESSAGES.emailRequired }]],
      ['105', 'refused', `${w.code}-105`, [{ path: 'email', message: REDCAP_MESSAGES.emailTwice('101') }]],
      ['106', 'unchanged', `${w.code}-106`, []],
      ['107', 'update', `${w.code}-107`, []],
      // 107's new email is not also a new participant's.
      ['108', 'refused', `${w.code}-108`, [{ path: 'email', message: REDCAP_MESSAGES.emailTwice('107') }]],
    ]);
    expect(p.rows.find((r: { recordId: string }) => r.recordId === '107').currentEmail).toBe(
      'older@enrol.example',
    );
    expect(p.counts).toEqual({ create: 1, update: 1, unchanged: 1, refused: 5 });
    expect(p.teamParticipants).toBe(2);

    const applied = await w.a.as.User.post(w.url('apply'), { previewDigest: p.previewDigest });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      created: [{ recordId: '101', participantCode: `${w.code}-101` }],
      updated: 1,
      message: REDCAP_MESSAGES.enrolled(1, 1),
    });
    expect(await participants(w.trialId)).toEqual([
      { participant_code: `${w.code}-101`, email: 'r101@enrol.example' },
      { participant_code: `${w.code}-106`, email: 'r106@enrol.example' },
      { participant_code: `${w.code}-107`, email: 'old@enrol.example' },
    ]);
    const created = (await auditRows(t.ctx.db, 'participant.create', ['after'])).filter(
      (r) =>
        (r.after as { redcapRecordId?: string }).redcapRecordId === '101' &&
        (r.after as { trialId: number }).trialId === w.trialId,
    );
    expect(created).toHaveLength(1);
    expect((await auditRows(t.ctx.db, 'redcap.enrol', ['entity_id'])).map((r) => r.entity_id)).toContain(
      String(w.trialId),
    );
    // Applied again: everything is in, nothing to do.
    const again = (await w.a.as.User.post(w.url('preview'))).json();
    // 108's email is now 107's: refused as taken.
    expect(again.counts).toEqual({ create: 0, update: 0, unchanged: 3, refused: 5 });
  });

  it("counts the team's limit in record order, and an apply after a change creates nothing (409)", async () => {
    const w = await world(
      [
        { record_id: '201', email: 'r201@enrol.example' },
        { record_id: '202', email: 'r202@enrol.example' },
        { record_id: '203', email: 'r203@enrol.example' },
      ],
      { maxParticipants: 2 },
    );
    const p = (await w.a.as.Admin.post(w.url('preview'))).json();
    expect(p.rows.map((r: { verdict: string }) => r.verdict)).toEqual(['create', 'create', 'refused']);
    expect(p.rows[2].errors).toEqual([{ path: '', message: PARTICIPANT_MESSAGES.limitReached }]);
    expect(p.maxParticipants).toBe(2);
    // Someone adds a participant meanwhile: the apply's verdicts differ, nothing is created.
    await w.a.as.Admin.post('/api/trialParticipants', { trialId: w.trialId, email: 'other@enrol.example' });
    const stale = await w.a.as.Admin.post(w.url('apply'), { previewDigest: p.previewDigest });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(REDCAP_MESSAGES.enrolChanged(2));
    expect((await participants(w.trialId)).map((r) => r.email)).toEqual(['other@enrol.example']);
    expect(
      (await auditRows(t.ctx.db, 'redcap.enrol.refused', ['entity_id'])).map((r) => r.entity_id),
    ).toContain(String(w.trialId));
  });

  it("a team that keeps no emails enrols records without one (the add call's placeholder), REDCap's emails unread", async () => {
    const w = await world(
      [
        { record_id: '401', email: '' },
        { record_id: '402', email: 'r402@enrol.example' },
      ],
      { hiddenFields: ['email', 'notes'] },
    );
    const p = (await w.a.as.Admin.post(w.url('preview'))).json();
    expect(p.rows.map((r: { verdict: string; email: string | null }) => [r.verdict, r.email])).toEqual([
      ['create', null],
      ['create', null],
    ]);
    expect((await w.a.as.Admin.post(w.url('apply'), { previewDigest: p.previewDigest })).statusCode).toBe(
      200,
    );
    const stored = await participants(w.trialId);
    expect(stored.map((r) => r.participant_code)).toEqual([`${w.code}-401`, `${w.code}-402`]);
    for (const r of stored) expect(r.email).toMatch(/@hidden\.invalid$/);
  });

  it('needs a connected trial; a Viewer gets 403, another team and a User not on the trial the same 404', async () => {
    const w = await world([{ record_id: '301', email: 'r301@enrol.example' }]);
    expect((await w.a.as.Viewer.post(w.url('preview'))).statusCode).toBe(403);
    const stranger = await b.as.Admin.post(w.url('preview'));
    expect(stranger.statusCode).toBe(404);
    expect((await b.as.Admin.post(w.url('apply'), { previewDigest: 'a'.repeat(64) })).statusCode).toBe(404);
    // A trial the User is not on (trialWithParticipants adds them; this one is made without).
    const other = (
      await w.a.as.Admin.post('/api/userTrials', { trialNumber: '2', trialName: 'Not on it' })
    ).json().trialId;
    const notOn = await w.a.as.User.post(`/api/trials/${other}/redcap/enrol/preview`);
    expect(notOn.statusCode).toBe(404);
    expect(notOn.json()).toEqual(stranger.json());
    const unconnected = await w.a.as.Admin.post(`/api/trials/${other}/redcap/enrol/preview`);
    expect(unconnected.statusCode).toBe(409);
    expect(unconnected.json().message).toBe(REDCAP_MESSAGES.notConnected);
  });
});
