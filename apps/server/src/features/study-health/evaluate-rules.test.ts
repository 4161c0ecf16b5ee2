import {
  type HealthDay,
  type HealthDevice,
  DEFAULT_HEALTH_RULE_SETTINGS as RULES,
} from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { describe, expect, it } from 'vitest';
import { holdingRules, type TrialHealthState } from './evaluate-rules.js';

const NOW = new Date('2026-11-26T15:00:00Z');
const NO_TRIAL_STATE: TrialHealthState = { redcapPushFailed: null };
const tracker = (over: Partial<HealthDevice> = {}): HealthDevice => ({
  participantDeviceId: 1,
  provider: 'fitbit',
  linkStatus: 'active',
  lastSyncAt: '2026-11-26T14:00:00Z',
  batteryLevel: 80,
  ...over,
});
/** Days ending on the 26th (today), oldest first. */
const days = (values: Array<Partial<HealthDay>>): HealthDay[] =>
  values.map((v, i) => ({
    date: addDays('2026-11-26', i - values.length + 1),
    wearMinutes: null,
    cgmActivePercent: null,
    bpReadings: null,
    metricsPresent: [],
    ...v,
  }));
const keys = (devices: HealthDevice[], d: HealthDay[], rules = RULES) =>
  holdingRules(rules, { participantCode: 'P-1', devices, days: d }, NOW, NO_TRIAL_STATE).map(
    (r) => r.ruleKey,
  );

describe('which rules hold for a participant', () => {
  it('low wear: the last 2 complete days under 10 h each (today does not count)', () => {
    const low = days([{ wearMinutes: 900 }, { wearMinutes: 500 }, { wearMinutes: 599 }, { wearMinutes: 0 }]);
    const r = holdingRules(
      RULES,
      { participantCode: 'P-1', devices: [tracker()], days: low },
      NOW,
      NO_TRIAL_STATE,
    );
    expect(r).toEqual([
      {
        ruleKey: 'lowWear',
        detail: {
          minHours: 10,
          days: [
            { date: '2026-11-24', wearMinutes: 500 },
            { date: '2026-11-25', wearMinutes: 599 },
          ],
        },
      },
    ]);
    // One complete day at 10 h or more breaks it; so does a day with no data; today alone never raises it.
    expect(keys([tracker()], days([{ wearMinutes: 500 }, { wearMinutes: 600 }, { wearMinutes: 0 }]))).toEqual(
      [],
    );
    expect(
      keys([tracker()], days([{ wearMinutes: 500 }, { wearMinutes: null }, { wearMinutes: 0 }])),
    ).toEqual([]);
    expect(keys([tracker()], days([{ wearMinutes: 10 }, { wearMinutes: 0 }]))).toEqual([]);
    // A gap in the dates is not consecutive.
    const gap = days([{ wearMinutes: 1 }, { wearMinutes: 1 }, { wearMinutes: 1 }]);
    gap.splice(1, 1);
    expect(keys([tracker()], [...gap, { ...gap[1]!, date: '2026-11-27' }])).toEqual([]);
    // Switched off, or without a tracker: nothing.
    const off = { ...RULES, lowWear: { ...RULES.lowWear, enabled: false } };
    expect(keys([tracker()], low, off)).toEqual([]);
    expect(keys([tracker({ provider: 'omron', batteryLevel: null })], low)).not.toContain('lowWear');
  });

  it('no sync for more than 48 h, battery below 15 %, and a broken link (always on)', () => {
    expect(keys([tracker({ lastSyncAt: '2026-11-24T14:59:00Z' })], [])).toEqual(['noSync']);
    expect(keys([tracker({ lastSyncAt: '2026-11-24T15:00:00Z' })], [])).toEqual([]);
    expect(keys([tracker({ batteryLevel: 14 })], [])).toEqual(['lowBattery']);
    expect(keys([tracker({ batteryLevel: 15 })], [])).toEqual([]);
    expect(keys([tracker({ linkStatus: 'errored' })], [])).toEqual(['linkError']);
    expect(keys([tracker({ linkStatus: 'revoked', batteryLevel: 1 })], [])).toEqual(['linkError']);
    const allOff = {
      ...RULES,
      noSync: { ...RULES.noSync, enabled: false },
      lowBattery: { ...RULES.lowBattery, enabled: false },
    };
    expect(
      keys(
        [
          tracker({ linkStatus: 'errored' }),
          tracker({ batteryLevel: 1, lastSyncAt: '2026-01-01T00:00:00Z' }),
        ],
        [],
        allOff,
      ),
    ).toEqual(['linkError']);
  });

  it('CGM active below 70 % for 2 complete days; no blood-pressure reading for the last 3 days', () => {
    const cgm = tracker({ provider: 'dexcom', lastSyncAt: null, batteryLevel: null });
    const omron = tracker({ provider: 'omron', lastSyncAt: null, batteryLevel: null });
    expect(
      keys([cgm], days([{ cgmActivePercent: 69.9 }, { cgmActivePercent: 10 }, { cgmActivePercent: 5 }])),
    ).toEqual(['lowCgmActive']);
    expect(
      keys([cgm], days([{ cgmActivePercent: 70 }, { cgmActivePercent: 10 }, { cgmActivePercent: 5 }])),
    ).toEqual([]);
    expect(
      keys([omron], days([{ bpReadings: 2 }, { bpReadings: 0 }, { bpReadings: 0 }, { bpReadings: 0 }])),
    ).toEqual(['noBpReading']);
    expect(keys([omron], days([{ bpReadings: 0 }, { bpReadings: 1 }, { bpReadings: 0 }]))).toEqual([]);
    expect(keys([omron], days([{ bpReadings: 0 }, { bpReadings: 0 }]))).toEqual([]);
  });

  it('redcapPush: always on, for a coded participant of a trial whose last finished push failed, whatever else holds', () => {
    const failed: TrialHealthState = {
      redcapPushFailed: {
        pushId: 7,
        failedAt: '2026-11-26T05:21:00Z',
        error: 'REDCap refused (HTTP 403): You do not have permissions to use the API',
        willRetry: false,
      },
    };
    const allOff = Object.fromEntries(
      Object.entries(RULES).map(([k, v]) => [k, { ...v, enabled: false }]),
    ) as unknown as typeof RULES;
    // No device, no day, every switchable rule off: it still holds, with the push's state as its detail.
    expect(holdingRules(allOff, { participantCode: 'P-101', devices: [], days: [] }, NOW, failed)).toEqual([
      { ruleKey: 'redcapPush', detail: failed.redcapPushFailed },
    ]);
    // Beside another rule, after it; the detail says whether the push will be retried.
    const retried: TrialHealthState = { redcapPushFailed: { ...failed.redcapPushFailed!, willRetry: true } };
    const both = holdingRules(
      RULES,
      { participantCode: 'P-101', devices: [tracker({ linkStatus: 'revoked' })], days: [] },
      NOW,
      retried,
    );
    expect(both.map((r) => r.ruleKey)).toEqual(['linkError', 'redcapPush']);
    expect(both[1]!.detail).toMatchObject({ pushId: 7, willRetry: true });
    // A participant without a code is no REDCap record: the push does not send it, no alert.
    expect(holdingRules(RULES, { participantCode: null, devices: [], days: [] }, NOW, failed)).toEqual([]);
    // The last finished push done (or no REDCap): nothing.
    expect(
      holdingRules(RULES, { participantCode: 'P-101', devices: [], days: [] }, NOW, {
        redcapPushFailed: null,
      }),
    ).toEqual([]);
  });
});
