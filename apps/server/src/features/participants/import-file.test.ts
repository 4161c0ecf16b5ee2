import { IMPORT_MESSAGES } from '@trialwear/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportFileError, readParticipantFile } from './import-file.js';

const read = (text: string, maxRows = 1000) =>
  readParticipantFile(Buffer.from(text), { maxRows, maxUnzippedBytes: 1024 * 1024 });

describe('readParticipantFile (CSV)', () => {
  it('maps the header’s columns in any order and case, keeps spreadsheet row numbers, skips blank rows', async () => {
    const file = await read(
      '\uFEFF Email ,codeSuffix,AGE,gender,notes\r\n\r\na@x.example,1,30,female,"two\nlines, quoted"\r\n,,,,\r\nb@x.example,2,,,\r\n',
    );
    expect(file.format).toBe('csv');
    expect(file.rows).toEqual([
      {
        row: 3,
        values: {
          codeSuffix: '1',
          email: 'a@x.example',
          gender: 'female',
          age: '30',
          notes: 'two\nlines, quoted',
        },
        extraCells: false,
      },
      {
        row: 5,
        values: { codeSuffix: '2', email: 'b@x.example', gender: '', age: '', notes: '' },
        extraCells: false,
      },
    ]);
  });

  it('reads semicolons when the header has no comma; short rows are empty cells, surplus filled cells are flagged', async () => {
    const file = await read(
      'codeSuffix;email;gender;age;notes\n1;a@x.example\n2;b@x.example;;;;;\n3;c@x.example;;;;x\n',
    );
    expect(file.rows.map((r) => [r.values.email, r.values.notes, r.extraCells])).toEqual([
      ['a@x.example', '', false],
      ['b@x.example', '', false],
      ['c@x.example', '', true],
    ]);
  });

  it.each([
    ['', IMPORT_MESSAGES.empty],
    ['codeSuffix,email,gender,age,notes\n', IMPORT_MESSAGES.empty],
    ['codeSuffix,email,gender,age\n1,a@x.example,,\n', IMPORT_MESSAGES.wrongHeader],
    ['codeSuffix,email,gender,age,notes,notes\n1,a,,,,\n', IMPORT_MESSAGES.wrongHeader],
    ['1,a@x.example,female,30,\n', IMPORT_MESSAGES.wrongHeader],
    ['codeSuffix,email,gender,age,notes\n1,"a,,,\n', IMPORT_MESSAGES.unreadable],
  ])('refuses %j as a whole', async (text, message) => {
    await expect(read(text)).rejects.toEqual(new ImportFileError(message));
  });

  it('counts participant rows against the cap, not blank ones', async () => {
    const header = 'codeSuffix,email,gender,age,notes\n';
    await expect(read(`${header}${'\n'.repeat(50)}1,a,,,\n2,b,,,\n`, 2)).resolves.toBeTruthy();
    await expect(read(`${header}1,a,,,\n2,b,,,\n3,c,,,\n`, 2)).rejects.toEqual(
      new ImportFileError(IMPORT_MESSAGES.tooManyRows),
    );
  });

  it('any bytes: rows or an ImportFileError, never another failure', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.boolean(), async (bytes, zip) => {
        const buf = Buffer.from(zip ? [0x50, 0x4b, 0x03, 0x04, ...bytes] : bytes);
        const header = Buffer.from('codeSuffix,email,gender,age,notes\n');
        for (const b of [buf, Buffer.concat([header, buf])]) {
          try {
            await readParticipantFile(b, { maxRows: 1000, maxUnzippedBytes: 1024 * 1024 });
          } catch (err) {
            expect(err).toBeInstanceOf(ImportFileError);
          }
        }
      }),
      { numRuns: 200, seed: 45 },
    );
  });
});
