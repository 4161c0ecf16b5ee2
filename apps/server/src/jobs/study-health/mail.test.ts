import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { digestMail, ruleInWords } from './mail.js';

const ctx = { config: { publicUrl: 'https://portal.example' } } as AppContext;
const opened = new Date('2027-03-20T05:21:00Z');
const pushDetail = { pushId: 12, failedAt: opened.toISOString(), error: 'REDCap refused', willRetry: false };
const alert = (id: number, ruleKey: 'redcapPush' | 'lowBattery', code: string | null, detail: object) => ({
  id,
  trial_id: 3,
  participant_id: 100 + id,
  participant_code: code,
  rule_key: ruleKey,
  opened_at: opened,
  acknowledged_at: null,
  detail,
});

describe("study health's mail text for a failed REDCap push", () => {
  it('says the push failed and whether it is retried, never REDCap’s own error text', () => {
    expect(ruleInWords('redcapPush', pushDetail)).toBe(
      "the trial's REDCap push #12 failed; it needs an Admin (see the push log)",
    );
    expect(ruleInWords('redcapPush', { ...pushDetail, willRetry: true })).toBe(
      "the trial's REDCap push #12 failed; it will be retried",
    );
  });

  it("the digest gives one line per failed push with its participants' codes, not one per participant", () => {
    const alerts = [
      alert(1, 'lowBattery', 'T1-001', { percent: 15, devices: [] }),
      ...Array.from({ length: 12 }, (_, i) => alert(10 + i, 'redcapPush', `T1-${200 + i}`, pushDetail)),
    ];
    const { text } = digestMail(ctx, {
      firstName: 'Ada',
      trial: { id: 3, trial_name: 'Trial', trial_number: '1' },
      localDate: '2027-03-20',
      zone: 'UTC',
      alerts,
      newIds: new Set(alerts.map((a) => a.id)),
    });
    expect(text).toContain('13 open alerts, 13 new');
    const push = text.split('\n').filter((l) => l.includes('REDCap'));
    expect(push).toEqual([
      "- the trial's REDCap push #12 failed; it needs an Admin (see the push log): 12 participants (T1-200, T1-201, T1-202, T1-203, T1-204, T1-205, T1-206, T1-207, T1-208, T1-209, …), since 2027-03-20 05:21",
    ]);
    expect(text).not.toContain('REDCap refused');
    expect(text).toContain('- T1-001: battery below 15 %');
  });
});
