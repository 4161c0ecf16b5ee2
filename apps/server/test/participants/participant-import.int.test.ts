/*
 * Bulk enrolment (issue #25 item 4, decision 045) on the real app and
 * database: a file's rows previewed with the add-participant call's exact
 * messages, applied in one transaction (all valid rows or none), the limit
 * exact, the apply refusing a preview that no longer holds, the row rules,
 * and the trial's scope. The file formats and file-level errors:
 * participant-import-files.int.test.ts.
 */
import { IMPORT_MESSAGES, INPUT_MESSAGES, PARTICIPANT_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows } from '../support/audit.js';
import { failAuditOf } from '../support/failing-audit.js';
import type { TeamFixture } from '../support/fixtures.js';
import { multipartBody } from '../support/multipart.js';
import { csv, file, HEADER, importWorld, type Row } from '../support/participant-import.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('bulk enrolment from a CSV or XLSX file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const { teamWithTrial, upload, previewAndApply, participantsOf } = importWorld(() => t);

  it('500 rows with 10 bad ones: the preview refuses those 10 with the spec’s messages, the apply creates 490', async () => {
    const f = await teamWithTrial();
    // Already in the team: an email and a code the file repeats.
    const existing = await f.as.Admin.post('/api/trialParticipants', {
      trialId: f.trialId,
      email: 'taken@bulk.example',
      codeSuffix: '9999',
    });
    expect(existing.statusCode).toBe(200);
    const rows: Row[] = Array.from({ length: 500 }, (_, i) => [
      String(i + 1),
      `p${i + 1}@bulk.example`,
      ['female', 'male', 'other', 'None', ''][i % 5]!,
      String(20 + (i % 60)),
      i % 7 === 0 ? `note, "quoted", of ${i + 1}\nsecond line` : '',
    ]);
    // Ten bad rows (file rows are the index + 2: the header is row 1).
    const bad: Array<[index: number, row: Row, path: string, message: string]> = [
      [9, ['10', '', 'female', '30', ''], 'email', PARTICIPANT_MESSAGES.emailRequired],
      [49, ['50', 'not-an-email', 'male', '30', ''], 'email', PARTICIPANT_MESSAGES.emailInvalid],
      [99, ['100', 'p100@bulk.example', 'other', '0', ''], 'age', PARTICIPANT_MESSAGES.ageAboveZero],
      [149, ['150', 'p150@bulk.example', 'None', '1234', ''], 'age', PARTICIPANT_MESSAGES.ageMaxDigits],
      [199, ['200', 'p200@bulk.example', 'female', '4a', ''], 'age', PARTICIPANT_MESSAGES.ageDigits],
      [249, ['AB', 'p250@bulk.example', 'male', '30', ''], 'codeSuffix', PARTICIPANT_MESSAGES.suffixRule],
      [
        299,
        ['300', 'p300@bulk.example', 'other', '30', 'n'.repeat(301)],
        'notes',
        PARTICIPANT_MESSAGES.notesTooLong,
      ],
      [349, ['350', 'TAKEN@bulk.example', 'None', '30', ''], 'email', PARTICIPANT_MESSAGES.emailTaken],
      [399, ['9999', 'p400@bulk.example', 'female', '30', ''], 'codeSuffix', PARTICIPANT_MESSAGES.codeTaken],
      [449, ['450', 'p2@bulk.example', 'male', '30', ''], 'email', IMPORT_MESSAGES.emailTwice(3)],
    ];
    for (const [i, row] of bad) rows[i] = row;
    const content = csv(rows);

    const { preview, apply } = await previewAndApply(f.as.Admin, f.trialId, content);
    expect(preview).toMatchObject({ format: 'csv', validCount: 490, refusedCount: 10 });
    const refused = preview.rows.filter((r: { valid: boolean }) => !r.valid);
    expect(refused.map((r: { row: number; errors: unknown }) => [r.row, r.errors])).toEqual(
      bad.map(([i, , path, message]) => [i + 2, [{ path, message }]]),
    );
    // A refused row still shows the code it would have had (its suffix is fine; its age is not).
    expect(preview.rows[99]).toMatchObject({ row: 101, valid: false, participantCode: `${f.code}-100` });
    const row8 = preview.rows[7];
    expect(row8).toMatchObject({ row: 9, valid: true, participantCode: `${f.code}-8` });
    expect(row8.values).toEqual({
      codeSuffix: '8',
      email: 'p8@bulk.example',
      gender: 'other',
      age: '27',
      notes: rows[7]![4],
    });

    expect(apply.statusCode, apply.body).toBe(200);
    expect(apply.json().created).toHaveLength(490);
    expect(apply.json()).toMatchObject({ refusedCount: 10, message: IMPORT_MESSAGES.created(490) });
    const stored = await participantsOf(f.trialId);
    expect(stored).toHaveLength(491);
    const p8 = stored.find((p) => p.email === 'p8@bulk.example')!;
    expect(p8).toMatchObject({
      participant_code: `${f.code}-8`,
      gender: 'other',
      age: 27,
      notes: rows[7]![4],
    });
    expect(stored.find((p) => p.email === 'p1@bulk.example')?.notes).toBe(
      'note, "quoted", of 1\nsecond line',
    );
    expect(stored.find((p) => p.email === 'p5@bulk.example')?.gender).toBe('None');
    // As the add call: one participant.create row each, and one for the import.
    const creates = await auditRows(t.ctx.db, 'participant.create', ['entity_id', 'team_id']);
    const createdIds = new Set(
      apply.json().created.map((c: { participantId: number }) => String(c.participantId)),
    );
    expect(creates.filter((a) => createdIds.has(a.entity_id!))).toHaveLength(490);
    const imports = (
      await auditRows(t.ctx.db, 'participant.import', ['entity_id', 'after', 'team_id'])
    ).filter((a) => a.entity_id === String(f.trialId));
    expect(imports).toHaveLength(1);
    expect(imports[0]!.after).toMatchObject({
      format: 'csv',
      rows: 500,
      created: 490,
      refusedRows: bad.map(([i]) => i + 2),
    });
  }, 60_000);

  it('the team’s limit is exact: rows past it are refused with the spec’s message, the rest created', async () => {
    const f = await teamWithTrial({ maxParticipants: 5 });
    await f.as.Admin.post('/api/trialParticipants', { trialId: f.trialId, email: 'first@limit.example' });
    const rows: Row[] = [
      ['1', 'a@limit.example', '', '', ''],
      ['2', 'bad', '', '', ''], // refused for itself: takes no place
      ['3', 'b@limit.example', '', '', ''],
      ['4', 'c@limit.example', '', '', ''],
      ['5', 'd@limit.example', '', '', ''],
      ['6', 'e@limit.example', '', '', ''],
    ];
    const { preview, apply } = await previewAndApply(f.as.Admin, f.trialId, csv(rows));
    expect(preview).toMatchObject({
      validCount: 4,
      refusedCount: 2,
      maxParticipants: 5,
      teamParticipants: 1,
    });
    expect(
      preview.rows.map((r: { valid: boolean; errors: Array<{ message: string }> }) =>
        r.errors.map((e) => e.message),
      ),
    ).toEqual([[], [PARTICIPANT_MESSAGES.emailInvalid], [], [], [], [PARTICIPANT_MESSAGES.limitReached]]);
    expect(apply.statusCode, apply.body).toBe(200);
    expect(await participantsOf(f.trialId)).toHaveLength(5);
    // Full: the next file is all refusals, and applying it creates nothing.
    const again = await previewAndApply(f.as.Admin, f.trialId, csv([['7', 'f@limit.example', '', '', '']]));
    expect(again.preview.rows[0].errors).toEqual([{ path: '', message: PARTICIPANT_MESSAGES.limitReached }]);
    expect(again.apply.json()).toMatchObject({ created: [], refusedCount: 1 });
    expect(await participantsOf(f.trialId)).toHaveLength(5);
  });

  it('an apply whose verdicts differ from the preview creates nothing and says so; without a preview it is refused', async () => {
    const f = await teamWithTrial();
    const content = csv([
      ['1', 'one@race.example', '', '', ''],
      ['2', 'two@race.example', '', '', ''],
    ]);
    const preview = await upload(f.as.Admin, f.trialId, 'preview', [file(content)]);
    expect(preview.json()).toMatchObject({ validCount: 2 });
    // Meanwhile, someone adds a participant with row 3's email.
    await f.as.Admin.post('/api/trialParticipants', { trialId: f.trialId, email: 'two@race.example' });
    const apply = await upload(f.as.Admin, f.trialId, 'apply', [
      { name: 'previewDigest', value: preview.json().previewDigest },
      file(content),
    ]);
    expect(apply.statusCode).toBe(409);
    expect(apply.json()).toMatchObject({
      message: IMPORT_MESSAGES.changed(1),
      displayToUser: true,
      errors: [{ path: 'row 3: email', message: PARTICIPANT_MESSAGES.emailTaken }],
    });
    expect(await participantsOf(f.trialId)).toHaveLength(1);
    // Another file with the first file's digest: not what was previewed either.
    const other = await upload(f.as.Admin, f.trialId, 'apply', [
      { name: 'previewDigest', value: preview.json().previewDigest },
      file(csv([['1', 'one@race.example', '', '', '']])),
    ]);
    expect(other.statusCode).toBe(409);
    const noPreview = await upload(f.as.Admin, f.trialId, 'apply', [file(content)]);
    expect(noPreview.statusCode).toBe(400);
    expect(noPreview.json().message).toBe(IMPORT_MESSAGES.noPreview);
    expect(await participantsOf(f.trialId)).toHaveLength(1);
  });

  it('two applies at once under the limit: one creates its rows, the other is told and creates nothing', async () => {
    const f = await teamWithTrial({ maxParticipants: 10 });
    const files = ['a', 'b'].map((x) =>
      csv(
        Array.from(
          { length: 6 },
          (_, i): Row => [`${x === 'a' ? 1 : 2}${i}`, `${x}${i}@race.example`, '', '', ''],
        ),
      ),
    );
    // Both previewed while the team is empty: 6 valid each, 12 in all for 10 places.
    const previews = await Promise.all(files.map((c) => upload(f.as.Admin, f.trialId, 'preview', [file(c)])));
    expect(previews.map((p) => p.json().validCount)).toEqual([6, 6]);
    const applies = await Promise.all(
      files.map((c, i) =>
        upload(f.as.Admin, f.trialId, 'apply', [
          { name: 'previewDigest', value: previews[i]!.json().previewDigest },
          file(c),
        ]),
      ),
    );
    expect(applies.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const refused = applies.find((a) => a.statusCode === 409)!;
    expect(refused.json().message).toBe(IMPORT_MESSAGES.changed(2));
    expect(await participantsOf(f.trialId)).toHaveLength(6);
  });

  it('the apply is one transaction: a failure at its end leaves no participant', async () => {
    const f = await teamWithTrial();
    const content = csv(
      Array.from({ length: 20 }, (_, i): Row => [String(i), `tx${i}@bulk.example`, '', '', '']),
    );
    const preview = await upload(f.as.Admin, f.trialId, 'preview', [file(content)]);
    const restore = await failAuditOf(t, 'participant.import');
    try {
      const apply = await upload(f.as.Admin, f.trialId, 'apply', [
        { name: 'previewDigest', value: preview.json().previewDigest },
        file(content),
      ]);
      expect(apply.statusCode).toBeGreaterThanOrEqual(500);
      expect(await participantsOf(f.trialId)).toEqual([]);
    } finally {
      await restore();
    }
    // Nothing half-made: the same apply now creates all 20.
    const again = await upload(f.as.Admin, f.trialId, 'apply', [
      { name: 'previewDigest', value: preview.json().previewDigest },
      file(content),
    ]);
    expect(again.statusCode, again.body).toBe(200);
    expect(await participantsOf(f.trialId)).toHaveLength(20);
  });

  it('row rules beyond the add call’s fields: extra cells, control characters, case-insensitive duplicates in the file', async () => {
    const f = await teamWithTrial();
    const content = `${HEADER}\r\n1,a@rules.example,,,,surplus\r\n2,b@rules.example,,,bell\u0007\r\n3,A@RULES.EXAMPLE,,,\r\n3,c@rules.example,,,\r\n`;
    const preview = (await upload(f.as.Admin, f.trialId, 'preview', [file(content)])).json();
    expect(preview.rows.map((r: { errors: unknown }) => r.errors)).toEqual([
      [{ path: '', message: IMPORT_MESSAGES.extraCells }],
      [{ path: 'notes', message: INPUT_MESSAGES.controlCharacters }],
      [{ path: 'email', message: IMPORT_MESSAGES.emailTwice(2) }],
      [{ path: 'codeSuffix', message: IMPORT_MESSAGES.codeTwice(4) }],
    ]);
  });

  it('a team that hides email and notes: the columns are ignored, as in the add call', async () => {
    const f = await teamWithTrial({ hiddenFields: ['email', 'notes'] });
    const { preview, apply } = await previewAndApply(
      f.as.Admin,
      f.trialId,
      csv([
        ['1', '', 'female', '30', 'ignored'],
        ['2', 'not-checked', 'male', '', ''],
      ]),
    );
    expect(preview).toMatchObject({ validCount: 2 });
    expect(apply.statusCode).toBe(200);
    const stored = await participantsOf(f.trialId);
    expect(stored.map((p) => [/@hidden\.invalid$/.test(p.email), p.notes])).toEqual([
      [true, null],
      [true, null],
    ]);
  });

  it('scope: another team’s trial, a trial the User is not on → 404; a Viewer → 403; nothing created', async () => {
    const home = await teamWithTrial();
    const other = await teamWithTrial();
    const content = csv([['1', 'scope@x.example', '', '', '']]);
    for (const step of ['preview', 'apply'] as const) {
      for (const role of ['Sys_Admin', 'Admin', 'User'] as const) {
        const res = await upload(home.as[role], other.trialId, step, [
          { name: 'previewDigest', value: 'x' },
          file(content),
        ]);
        expect(res.statusCode, `${role} ${step} another team's trial`).toBe(404);
      }
      const notOnTrial = await upload(home.as.User, home.trialId, step, [file(content)]);
      expect(notOnTrial.statusCode).toBe(404);
      const viewer = await upload(home.as.Viewer, home.trialId, step, [file(content)]);
      expect(viewer.statusCode).toBe(403);
    }
    expect(
      (await home.as.Admin.get(`/api/trials/${other.trialId}/participants/import/template`)).statusCode,
    ).toBe(404);
    expect(await participantsOf(home.trialId)).toEqual([]);
    expect(await participantsOf(other.trialId)).toEqual([]);
    // A User on the trial may import, as they may add.
    await home.as.Admin.post('/api/trialUsers', { trialId: home.trialId, userEmail: await userEmail(home) });
    const { apply } = await previewAndApply(home.as.User, home.trialId, content);
    expect(apply.statusCode, apply.body).toBe(200);
  });

  it('CSRF: an upload without the header is refused before anything is read or created', async () => {
    const f = await teamWithTrial();
    const content = csv([['1', 'csrf@x.example', '', '', '']]);
    const preview = await upload(f.as.Admin, f.trialId, 'preview', [file(content)]);
    const { payload, headers } = multipartBody([
      { name: 'previewDigest', value: preview.json().previewDigest },
      file(content),
    ]);
    for (const step of ['preview', 'apply']) {
      const res = await f.as.Admin.request(
        'POST',
        `/api/trials/${f.trialId}/participants/import/${step}`,
        payload,
        {
          headers,
          csrf: false,
        },
      );
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(await participantsOf(f.trialId)).toEqual([]);
  });

  const userEmail = async (f: TeamFixture) =>
    (
      await t.ctx.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', f.userIds.User)
        .executeTakeFirstOrThrow()
    ).email;
});
