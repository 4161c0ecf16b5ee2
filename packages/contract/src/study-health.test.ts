import { describe, expect, it } from 'vitest';
import { csvCell } from './csv.js';
import {
  acknowledgeAlertBodySchema,
  DEFAULT_HEALTH_RULE_SETTINGS,
  healthRulesSchema,
  STUDY_HEALTH_MESSAGES as M,
  studyHealthQuerySchema,
  studyHealthReportQuerySchema,
} from './study-health.js';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('study health schemas', () => {
  it('the defaults are a valid rule set in any known zone', () => {
    for (const timezone of ['UTC', 'America/Denver', 'Asia/Kolkata'])
      expect(healthRulesSchema.safeParse({ timezone, ...DEFAULT_HEALTH_RULE_SETTINGS }).success).toBe(true);
  });

  it('refuses an unknown zone and out-of-range numbers with their messages', () => {
    const bad = (patch: object) =>
      messages(healthRulesSchema.safeParse({ timezone: 'UTC', ...DEFAULT_HEALTH_RULE_SETTINGS, ...patch }));
    expect(bad({ timezone: 'Europe/Atlantis' })).toEqual([M.timezoneUnknown]);
    expect(bad({ timezone: '' })).toEqual([M.timezoneRequired]);
    expect(bad({ lowWear: { enabled: true, minHours: 0.5, days: 2 } })).toEqual([M.wearHours]);
    expect(bad({ lowWear: { enabled: true, minHours: 24, days: 2 } })).toEqual([]);
    expect(bad({ noSync: { enabled: true, hours: 721 } })).toEqual([M.noSyncHours]);
    expect(bad({ noBpReading: { enabled: true, days: -0.5 } })).toEqual([M.days]);
    expect(bad({ lowBattery: { enabled: false, percent: 0 } })).toEqual([M.batteryPercent]);
    expect(bad({ digest: { enabled: true, localTime: '8:00' } })).toEqual([M.digestTime]);
    expect(bad({ digest: { enabled: true, localTime: '23:59' } })).toEqual([]);
  });

  it('a note is required, trimmed, and at most 1000 characters', () => {
    expect(acknowledgeAlertBodySchema.parse({ note: ' ok ' })).toEqual({ note: 'ok' });
    expect(messages(acknowledgeAlertBodySchema.safeParse({ note: ' ' }))).toEqual([M.noteRequired]);
    expect(messages(acknowledgeAlertBodySchema.safeParse({ note: 'x'.repeat(1001) }))).toEqual([
      M.noteTooLong,
    ]);
  });

  it('a range is real dates, in order, of at most 90 days', () => {
    expect(studyHealthQuerySchema.safeParse({ from: '2026-01-01', to: '2026-03-31' }).success).toBe(true);
    expect(messages(studyHealthQuerySchema.safeParse({ from: '2026-01-01', to: '2026-04-01' }))).toEqual([
      M.rangeTooLong,
    ]);
    expect(messages(studyHealthQuerySchema.safeParse({ from: '2026-02-02', to: '2026-02-01' }))).toEqual([
      M.rangeOrder,
    ]);
    expect(messages(studyHealthQuerySchema.safeParse({ to: '2026-02-30' }))).toEqual([M.dateInvalid]);
  });
  it('the report asks a format and keeps the range rules of the table', () => {
    const r = (q: object) => messages(studyHealthReportQuerySchema.safeParse(q));
    expect(r({ format: 'csv' })).toEqual([]);
    expect(r({ format: 'xlsx', from: '2026-01-01', to: '2026-03-31' })).toEqual([]);
    expect(r({})).toEqual([M.reportFormat]);
    expect(r({ format: 'XLSX' })).toEqual([M.reportFormat]);
    expect(r({ format: 'csv', from: '2026-01-01', to: '2026-04-01' })).toEqual([M.rangeTooLong]);
    expect(r({ format: 'csv', from: '2026-02-02', to: '2026-02-01' })).toEqual([M.rangeOrder]);
  });

  it('csvCell quotes what needs it and neutralises formulas', () => {
    expect(['a', 1.5, null, undefined, ''].map(csvCell)).toEqual(['a', '1.5', '', '', '']);
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });
});
