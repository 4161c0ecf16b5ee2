/*
 * Bulk enrolment's test world (participant-import*.int.test.ts): files in
 * the template's columns (CSV, XLSX), a team with a trial the User is not on,
 * and the preview and apply uploads as the import modal sends them.
 */
import { PARTICIPANT_IMPORT_COLUMNS } from '@trialwear/contract';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { type TeamFixture, teamWithRoles } from './fixtures.js';
import { type FormPart, multipartBody } from './multipart.js';
import type { TestApp, TestClient } from './test-app.js';

export const HEADER = PARTICIPANT_IMPORT_COLUMNS.join(',');
export type Row = [codeSuffix: string, email: string, gender: string, age: string, notes: string];
export const csv = (rows: Row[], header = HEADER) =>
  `${[header, ...rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(','))].join('\r\n')}\r\n`;

export async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Participants');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export type TeamWithTrial = TeamFixture & { trialId: number; code: string };

export const file = (content: Buffer | string, filename = 'participants.csv'): FormPart => ({
  name: 'file',
  filename,
  content,
});

/** The helpers on the file's test app (`app`: read when called, the app is made in beforeAll). */
export function importWorld(app: () => TestApp) {
  let teams = 0;
  /** A team that shows email and notes, with a trial the User is not on (Admin's). */
  const teamWithTrial = async (team: Parameters<typeof teamWithRoles>[2] = {}): Promise<TeamWithTrial> => {
    const f = await teamWithRoles(app(), `Import ${++teams}`, { hiddenFields: [], ...team });
    const trialId = (
      await f.as.Admin.post('/api/userTrials', { trialNumber: `${teams}`, trialName: 'Bulk' })
    ).json().trialId as number;
    const code = (await f.as.Admin.get(`/api/trialParticipants/${trialId}/trialCode`)).json().data
      .trial_code as string;
    return { ...f, trialId, code };
  };

  const upload = (client: TestClient, trialId: number, step: 'preview' | 'apply', parts: FormPart[]) => {
    const { payload, headers } = multipartBody(parts);
    return client.request('POST', `/api/trials/${trialId}/participants/import/${step}`, payload, { headers });
  };
  /** Preview, then apply the same file with the preview's digest. */
  const previewAndApply = async (client: TestClient, trialId: number, content: Buffer | string) => {
    const preview = await upload(client, trialId, 'preview', [file(content)]);
    expect(preview.statusCode, preview.body).toBe(200);
    const apply = await upload(client, trialId, 'apply', [
      { name: 'previewDigest', value: preview.json().previewDigest },
      file(content),
    ]);
    return { preview: preview.json(), apply };
  };
  const participantsOf = (trialId: number) =>
    app()
      .ctx.db.selectFrom('participants')
      .select(['id', 'email', 'participant_code', 'gender', 'age', 'notes'])
      .where('trial_id', '=', trialId)
      .orderBy('id')
      .execute();
  return { teamWithTrial, upload, previewAndApply, participantsOf };
}
