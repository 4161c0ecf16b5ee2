import { describe, expect, it } from 'vitest';
import { exportFileName, toCsv } from './export-table';

describe('table export', () => {
  it('names files with the product prefix and the date', () => {
    expect(exportFileName('trial 001/participants', 'csv', new Date('2026-11-22T10:00:00Z'))).toBe(
      'TrialWear_trial_001_participants_2026-11-22.csv',
    );
    expect(exportFileName('x', 'xlsx', new Date('2026-01-02T00:00:00Z'))).toBe('TrialWear_x_2026-01-02.xlsx');
  });

  it('writes RFC 4180 CSV and neutralises spreadsheet formulas', () => {
    const csv = toCsv(
      [
        { header: 'Id', value: (r) => (r as { id: number }).id },
        { header: 'Notes', value: (r) => (r as { notes: string | null }).notes },
      ],
      [
        { id: 1, notes: 'plain' },
        { id: 2, notes: 'has, comma and "quotes"' },
        { id: 3, notes: '=HYPERLINK("http://evil")' },
        { id: 4, notes: null },
      ],
    );
    expect(csv).toBe(
      [
        'Id,Notes',
        '1,plain',
        '2,"has, comma and ""quotes"""',
        `3,"'=HYPERLINK(""http://evil"")"`,
        '4,',
        '',
      ].join('\r\n'),
    );
  });
});
