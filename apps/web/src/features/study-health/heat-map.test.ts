import type { StudyHealthParticipant } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import {
  alertDetailText,
  cellOf,
  datesOf,
  dayPageOf,
  healthRange,
  heatRows,
  participantPageLink,
  RULE_LABELS,
} from './heat-map';

const participant = (over: Partial<StudyHealthParticipant>): StudyHealthParticipant => ({
  participantId: 1,
  participantCode: 'P-001',
  lastSyncAt: null,
  batteryLevel: null,
  linkStatus: 'active',
  devices: [],
  days: [],
  openAlerts: [],
  ...over,
});

describe('study health heat map', () => {
  it("ranges over the trial zone's last N local days", () => {
    // 02:00 UTC on Nov 25 is still Nov 24 in New York.
    const now = new Date('2026-11-25T02:00:00Z');
    expect(healthRange('America/New_York', now, 7)).toEqual({ from: '2026-11-18', to: '2026-11-24' });
    expect(healthRange('UTC', now, 14)).toEqual({ from: '2026-11-12', to: '2026-11-25' });
    expect(datesOf('2026-11-29', '2026-12-02')).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
  });

  it('says what each cell means: wear hours, CGM, blood pressure, no data', () => {
    const day = { date: '2026-11-24', cgmActivePercent: null, bpReadings: null, metricsPresent: [] };
    expect(cellOf({ ...day, wearMinutes: 570 })).toEqual({ tone: 'w2', text: '9.5', meaning: '9.5 h worn' });
    expect(cellOf({ ...day, wearMinutes: 0 })).toMatchObject({ tone: 'w0', text: '0' });
    expect(cellOf({ ...day, wearMinutes: 1440 })).toMatchObject({ tone: 'w4', text: '24' });
    expect(cellOf({ ...day, wearMinutes: null, cgmActivePercent: 82.4 })).toMatchObject({
      tone: 'cgmOk',
      meaning: 'CGM active 82 % of the day',
    });
    expect(cellOf({ ...day, wearMinutes: null, bpReadings: 1 }).meaning).toBe('1 blood-pressure reading');
    expect(cellOf({ ...day, wearMinutes: null })).toMatchObject({ tone: 'none' });
    expect(cellOf(undefined)).toMatchObject({ tone: 'none', meaning: 'no data (not synced yet)' });
  });

  it('puts those needing attention first: open alerts, a broken link, no link, then by code', () => {
    const rows = heatRows(
      [
        participant({ participantId: 1, participantCode: 'P-010' }),
        participant({ participantId: 2, participantCode: 'P-002' }),
        participant({ participantId: 3, participantCode: 'P-003', linkStatus: 'errored' }),
        participant({ participantId: 4, participantCode: 'P-004', openAlerts: ['noSync', 'lowWear'] }),
        participant({ participantId: 5, participantCode: 'P-005', linkStatus: 'none' }),
        participant({ participantId: 6, participantCode: 'P-006', openAlerts: ['lowBattery'] }),
      ],
      ['2026-11-24'],
    );
    expect(rows.map((r) => r.code)).toEqual(['P-004', 'P-006', 'P-003', 'P-005', 'P-002', 'P-010']);
  });

  it("opens the day on the participant's device's page", () => {
    const device = {
      participantDeviceId: 1,
      linkStatus: 'active' as const,
      lastSyncAt: null,
      batteryLevel: null,
    };
    expect(dayPageOf(participant({ devices: [{ ...device, provider: 'google_health' }] }))).toBe(
      '/FitbitParticipant1DayData',
    );
    expect(dayPageOf(participant({ devices: [{ ...device, provider: 'dexcom' }] }))).toBe(
      '/DexcomParticipantDataPage',
    );
    expect(dayPageOf(participant({}))).toBe('/ParticipantOverview');
  });

  it('links the page with the trial, the participant and the day in the query (the e-mail link form)', () => {
    expect(participantPageLink('/DexcomParticipantDataPage', 3, 41, '2026-11-24')).toBe(
      '/DexcomParticipantDataPage?trialId=3&participantId=41&date=2026-11-24',
    );
    expect(participantPageLink('/ParticipantOverview', 3, 41)).toBe(
      '/ParticipantOverview?trialId=3&participantId=41',
    );
  });
});

describe("a failed REDCap push's alert", () => {
  it('is labelled, and its line says the push, whether it is retried and the error', () => {
    expect(RULE_LABELS.redcapPush).toBe('REDCap push failed');
    const detail = {
      pushId: 12,
      failedAt: '2027-03-20T05:21:00Z',
      error: 'REDCap refused',
      willRetry: false,
    };
    expect(alertDetailText({ ruleKey: 'redcapPush', detail })).toBe(
      'Push #12, not retried: needs an Admin — REDCap refused',
    );
    expect(
      alertDetailText({ ruleKey: 'redcapPush', detail: { ...detail, willRetry: true, error: null } }),
    ).toBe('Push #12, will be retried');
    expect(alertDetailText({ ruleKey: 'lowBattery', detail: { percent: 15 } })).toBeNull();
  });
});
