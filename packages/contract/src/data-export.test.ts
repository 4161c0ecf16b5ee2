import { describe, expect, it } from 'vitest';
import {
  batchExportBodySchema,
  batchExportFormSchema,
  EXPORT_LIMITS,
  exportCallError,
  exportDateIssue,
  exportDateIssueField,
  isReservedFileName,
  EXPORT_MESSAGES as M,
} from './data-export.js';
import { exportJobParamsSchema, exportProgressPercent } from './data-export-jobs.js';

const valid = {
  trialId: 1,
  deviceId: 2,
  participantIds: [3],
  startDate: '2026-01-01',
  endDate: '2026-01-31',
  metrics: ['steps'],
  fileName: 'study export',
  exportMode: 'single-tab',
};

const messages = (body: unknown, today = '2026-06-01') => {
  const r = batchExportFormSchema(() => today).safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('export request (admin §5): one violation at a time, the exact message', () => {
  it('accepts a valid request', () => {
    expect(messages(valid)).toEqual([]);
    expect(batchExportBodySchema.parse(valid).fileName).toBe('study export');
  });
  it.each([
    [{ trialId: undefined }, M.trialRequired],
    [{ trialId: null }, M.trialRequired],
    [{ deviceId: undefined }, M.deviceRequired],
    [{ participantIds: [] }, M.participantsRequired],
    [{ participantIds: undefined }, M.participantsRequired],
    [{ startDate: undefined }, M.datesRequired],
    [{ endDate: '' }, M.datesRequired],
    [{ startDate: '2026-02-30' }, M.datesRequired],
    [{ startDate: '2026-02-01', endDate: '2026-01-31' }, M.startAfterEnd],
    [{ startDate: '2025-06-01', endDate: '2026-06-02' }, M.rangeTooLong],
    [{ startDate: '2025-05-31', endDate: '2025-06-30' }, M.rangeTooLong],
    [{ metrics: [] }, M.metricsRequired],
    [{ fileName: '   ' }, M.fileNameRequired],
    [{ fileName: undefined }, M.fileNameRequired],
    [{ fileName: 'a/b' }, M.fileNameInvalid],
  ])('%o → %s', (change, message) => {
    expect(messages({ ...valid, ...change })).toEqual([message]);
  });
  it('365 days exactly is allowed, 366 is not (31536000000 ms)', () => {
    expect(exportDateIssue('2025-06-01', '2026-06-01', '2026-06-01')).toBeNull();
    expect(exportDateIssue('2025-05-31', '2026-05-31', '2026-06-01')).toBe(M.rangeTooLong);
  });
});

describe('end date not in the future, reserved file names (ours)', () => {
  const issues = (body: unknown, today = '2026-06-01') => {
    const r = batchExportFormSchema(() => today).safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  };
  it('an end after today is refused under the end date; today itself is allowed', () => {
    expect(issues({ ...valid, startDate: '2026-05-01', endDate: '2026-06-01' })).toEqual([]);
    expect(issues({ ...valid, startDate: '2026-05-01', endDate: '2026-06-02' })).toEqual([
      { path: 'endDate', message: M.endInFuture },
    ]);
    // Start and end both in the future: the same message, still under the end.
    expect(issues({ ...valid, startDate: '2026-07-01', endDate: '2026-07-02' })).toEqual([
      { path: 'endDate', message: M.endInFuture },
    ]);
    // The static body schema has no clock: no such rule there.
    expect(
      batchExportBodySchema.safeParse({ ...valid, startDate: '2998-12-01', endDate: '2999-01-01' }).success,
    ).toBe(true);
  });
  it('the server passes a separate, later "today" for the end (UTC+14) than for the start (UTC−12)', () => {
    expect(exportDateIssue('2026-05-01', '2026-06-02', '2026-06-01', '2026-06-02')).toBeNull();
    expect(exportDateIssue('2026-05-01', '2026-06-03', '2026-06-01', '2026-06-02')).toBe(M.endInFuture);
    // The §5 rules keep their order and messages: a too long range is reported first.
    expect(exportDateIssue('2025-05-01', '2026-07-01', '2026-06-01')).toBe(M.rangeTooLong);
    expect(exportDateIssue('2026-07-02', '2026-07-01', '2026-06-01')).toBe(M.startAfterEnd);
    expect(exportDateIssueField(M.endInFuture, '2026-01-01')).toBe('endDate');
    expect(exportDateIssueField(M.datesRequired, '2026-01-01')).toBe('endDate');
    expect(exportDateIssueField(M.datesRequired, '')).toBe('startDate');
    expect(exportDateIssueField(M.rangeTooLong, '2026-01-01')).toBe('startDate');
  });
  it.each([
    '.',
    '..',
    '...',
    'CON',
    'con',
    'Prn',
    'aux',
    'NUL',
    'nul.txt',
    'NUL.tar.gz',
    'CON.',
    'con..',
    'aux .txt',
    'COM1',
    'com9',
    'COM0',
    'LPT1',
    'lpt9.csv',
    'LPT0',
  ])('%s is reserved: refused with the message under the file name', (fileName) => {
    expect(isReservedFileName(fileName)).toBe(true);
    expect(issues({ ...valid, fileName })).toEqual([{ path: 'fileName', message: M.fileNameReserved }]);
  });
  it.each([
    'console',
    'CON1',
    'COM10',
    'LPT',
    'nullable',
    'my.con',
    'aux-data',
    '.hidden',
    'a.',
    'study 1.2',
  ])('%s is an ordinary name', (fileName) => {
    expect(isReservedFileName(fileName)).toBe(false);
    expect(issues({ ...valid, fileName })).toEqual([]);
  });
  it('trailing spaces are trimmed before the check', () => {
    expect(issues({ ...valid, fileName: 'NUL   ' })).toEqual([
      { path: 'fileName', message: M.fileNameReserved },
    ]);
    expect(issues({ ...valid, fileName: ' .. ' })).toEqual([
      { path: 'fileName', message: M.fileNameReserved },
    ]);
  });
  it('the per-user bound message names the bound', () => {
    expect(M.tooManyActive).toContain(`${EXPORT_LIMITS.activePerUser} exports waiting or running`);
  });
});

describe('page helpers', () => {
  it('maps call failures to the §8 texts', () => {
    expect(exportCallError(0)).toBe(M.unableToConnect);
    expect(exportCallError(401)).toBe(M.authError);
    expect(exportCallError(403)).toBe(M.authError);
    expect(exportCallError(404)).toBe('Export endpoint not found');
    expect(exportCallError(502)).toBe('Server error (502)');
  });
  it('progress percent', () => {
    expect(exportProgressPercent(null)).toBeNull();
    expect(exportProgressPercent({ rowsWritten: 0, rowsTotal: 0 })).toBeNull();
    expect(exportProgressPercent({ rowsWritten: 50, rowsTotal: 200 })).toBe(25);
  });
});

describe("the data files' format (issue #24)", () => {
  it('is csv when absent, and csv or parquet when given', () => {
    expect(batchExportBodySchema.parse(valid).format).toBe('csv');
    expect(batchExportBodySchema.parse({ ...valid, format: 'csv' }).format).toBe('csv');
    expect(batchExportBodySchema.parse({ ...valid, format: 'parquet' }).format).toBe('parquet');
    expect(messages({ ...valid, format: 'parquet' })).toEqual([]);
  });
  it.each([['PARQUET'], ['xlsx'], [''], [null], [1]])(
    'refuses %o with its message, under format',
    (format) => {
      const r = batchExportBodySchema.safeParse({ ...valid, format });
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))).toEqual([
        { path: 'format', message: M.formatInvalid },
      ]);
    },
  );
  it('a job stored before the format existed reads as csv', () => {
    const stored = {
      fileName: 'old',
      startDate: '2026-01-01',
      endDate: '2026-01-02',
      participantIds: [1],
      metrics: ['steps'],
      trialId: 1,
      deviceId: 2,
      exportMode: 'single-tab',
    };
    expect(exportJobParamsSchema.parse(stored).format).toBe('csv');
    expect(exportJobParamsSchema.parse({ ...stored, format: 'parquet' }).format).toBe('parquet');
  });
});
