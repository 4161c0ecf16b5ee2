import { describe, expect, it } from 'vitest';
import {
  batchExportBodySchema,
  batchExportFormSchema,
  exportCallError,
  exportDateIssue,
  exportProgressPercent,
  EXPORT_MESSAGES as M,
} from './data-export.js';

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
