/*
 * Bulk enrolment's files (issue #25 item 4, decision 045): XLSX read as its
 * shown text, the template's round trip in both formats, and every file that
 * cannot be taken refused with one clear error and nothing changed.
 */
import {
  IMPORT_MESSAGES,
  PARTICIPANT_IMPORT_COLUMNS,
  PARTICIPANT_IMPORT_LIMITS,
  PARTICIPANT_MESSAGES,
} from '@trialwear/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import type { FormPart } from '../support/multipart.js';
import { csv, file, HEADER, importWorld, type Row, xlsx } from '../support/participant-import.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('bulk enrolment: the files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const { teamWithTrial, upload, previewAndApply, participantsOf } = importWorld(() => t);

  it('reads XLSX as CSV: the shown text of each cell (a linked email, a number), the first worksheet', async () => {
    const f = await teamWithTrial();
    const content = await xlsx([
      [...PARTICIPANT_IMPORT_COLUMNS],
      ['007', { text: 'x1@xlsx.example', hyperlink: 'mailto:x1@xlsx.example' }, 'Female', 42, 'first'],
      [],
      ['8', 'x2@xlsx.example', 'male', '', ''],
      ['9', 'x3@xlsx.example', 'nobody', 5, ''],
    ]);
    const { preview, apply } = await previewAndApply(f.as.Admin, f.trialId, content);
    expect(preview).toMatchObject({ format: 'xlsx', validCount: 2, refusedCount: 1 });
    expect(preview.rows.map((r: { row: number }) => r.row)).toEqual([2, 4, 5]);
    expect(preview.rows[0].values).toEqual({
      codeSuffix: '007',
      email: 'x1@xlsx.example',
      gender: 'Female',
      age: '42',
      notes: 'first',
    });
    expect(preview.rows[2].errors).toEqual([{ path: 'gender', message: PARTICIPANT_MESSAGES.genderInvalid }]);
    expect(apply.statusCode, apply.body).toBe(200);
    expect(
      (await participantsOf(f.trialId)).map((p) => [p.email, p.participant_code, p.gender, p.age]),
    ).toEqual([
      ['x1@xlsx.example', `${f.code}-007`, 'female', 42],
      ['x2@xlsx.example', `${f.code}-8`, 'male', null],
    ]);
  });

  it('the template round-trips: CSV and XLSX, filled in, preview valid and apply', async () => {
    const f = await teamWithTrial();
    const csvTemplate = await f.as.User.get(`/api/trials/${f.trialId}/participants/import/template`);
    expect(csvTemplate.statusCode).toBe(404); // the User is not on this trial
    const csvRes = await f.as.Admin.get(`/api/trials/${f.trialId}/participants/import/template`);
    expect(csvRes.statusCode).toBe(200);
    expect(csvRes.headers['content-type']).toMatch(/^text\/csv/);
    expect(csvRes.headers['content-disposition']).toBe('attachment; filename="participants-template.csv"');
    expect(csvRes.body).toBe(`${HEADER}\r\n`);
    const filledCsv = `${csvRes.body}1,t1@tpl.example,female,33,from the csv template\r\n`;
    expect((await previewAndApply(f.as.Admin, f.trialId, filledCsv)).apply.statusCode).toBe(200);

    const xlsxRes = await f.as.Admin.get(`/api/trials/${f.trialId}/participants/import/template?format=xlsx`);
    expect(xlsxRes.statusCode).toBe(200);
    expect(xlsxRes.headers['content-disposition']).toBe('attachment; filename="participants-template.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsxRes.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...PARTICIPANT_IMPORT_COLUMNS]);
    sheet.addRow(['2', 't2@tpl.example', 'male', '51', 'from the xlsx template']);
    const filledXlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const { preview, apply } = await previewAndApply(f.as.Admin, f.trialId, filledXlsx);
    expect(preview).toMatchObject({ format: 'xlsx', validCount: 1, refusedCount: 0 });
    expect(apply.statusCode).toBe(200);
    expect((await participantsOf(f.trialId)).map((p) => p.email)).toEqual([
      't1@tpl.example',
      't2@tpl.example',
    ]);
    expect(
      (await f.as.Admin.get(`/api/trials/${f.trialId}/participants/import/template?format=pdf`)).statusCode,
    ).toBe(400);
  });

  it('a file that cannot be taken is one clear error, and changes nothing', async () => {
    const f = await teamWithTrial();
    const bigRows = Array.from(
      { length: PARTICIPANT_IMPORT_LIMITS.maxRows + 1 },
      (_, i): Row => [String(i), `m${i}@x.example`, '', '', ''],
    );
    // A ZIP (so read as XLSX) whose one entry unpacks to 20 MB of zeros.
    const bomb = await new Promise<Buffer>((resolve) => {
      const zip = new yazl.ZipFile();
      zip.addBuffer(Buffer.alloc(20 * 1024 * 1024), 'xl/worksheets/sheet1.xml');
      zip.end();
      const chunks: Buffer[] = [];
      zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
      zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    });
    expect(bomb.length).toBeLessThan(PARTICIPANT_IMPORT_LIMITS.maxBytes);
    const cases: Array<[string, FormPart[], number, string]> = [
      [
        'wrong header',
        [file(csv([['1', 'a@x.example', '', '', '']], 'code,email,gender,age'))],
        400,
        IMPORT_MESSAGES.wrongHeader,
      ],
      [
        'unknown column',
        [file(csv([['1', 'a@x.example', '', '', '']], 'codeSuffix,email,gender,age,remarks'))],
        400,
        IMPORT_MESSAGES.wrongHeader,
      ],
      ['header only', [file(`${HEADER}\r\n,,,,\r\n`)], 400, IMPORT_MESSAGES.empty],
      ['empty file', [file('')], 400, IMPORT_MESSAGES.empty],
      ['too many rows', [file(csv(bigRows))], 400, IMPORT_MESSAGES.tooManyRows],
      [
        'too big',
        [file(Buffer.alloc(PARTICIPANT_IMPORT_LIMITS.maxBytes + 1, 'a'))],
        413,
        IMPORT_MESSAGES.tooBig,
      ],
      ['not UTF-8', [file(Buffer.from([0x63, 0xff, 0xfe, 0x0a]))], 400, IMPORT_MESSAGES.unreadable],
      ['unclosed quote', [file(`${HEADER}\r\n1,"a@x.example,,,\r\n`)], 400, IMPORT_MESSAGES.unreadable],
      [
        'broken XLSX',
        [file(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 1)]), 'p.xlsx')],
        400,
        IMPORT_MESSAGES.unreadable,
      ],
      ['XLSX that unpacks too far', [file(bomb, 'bomb.xlsx')], 400, IMPORT_MESSAGES.unzippedTooBig],
      ['no file', [{ name: 'previewDigest', value: 'x' }], 400, IMPORT_MESSAGES.noFile],
    ];
    for (const [name, parts, status, message] of cases) {
      for (const step of ['preview', 'apply'] as const) {
        const res = await upload(f.as.Admin, f.trialId, step, [
          { name: 'previewDigest', value: 'x' },
          ...parts,
        ]);
        expect(res.statusCode, `${name} ${step}: ${res.body}`).toBe(status);
        expect(res.json(), `${name} ${step}`).toMatchObject({ message, displayToUser: true });
      }
    }
    // More parts than an upload has (a second file, many fields): refused by the parser's limits, never a 5xx.
    const content = csv([['1', 'a@x.example', '', '', '']]);
    for (const parts of [
      [file(content), file(content, 'second.csv')],
      Array.from({ length: 8 }, (_, i): FormPart => ({ name: `f${i}`, value: 'x' })).concat(file(content)),
    ]) {
      const res = await upload(f.as.Admin, f.trialId, 'preview', parts);
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
    }
    // Not multipart at all (a JSON body): the same "choose a file".
    const json = await f.as.Admin.post(`/api/trials/${f.trialId}/participants/import/preview`, { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(IMPORT_MESSAGES.noFile);
    expect(await participantsOf(f.trialId)).toEqual([]);
  }, 60_000);
});
