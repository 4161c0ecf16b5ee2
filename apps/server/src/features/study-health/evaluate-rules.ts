/*
 * Which of a trial's rules hold for one participant (issue #23 item 3),
 * from what is stored — the devices' state (link status, the provider's last
 * sync, battery) and the measured days (device_health_days) — never from a
 * provider call. Pure: the alerts job opens an alert for each rule that
 * holds and closes the open ones that no longer do.
 *
 * Days are the participant's own local dates. "Complete" days are those
 * before the newest measured date (the health check measures today last);
 * a day with no data (null) never counts toward a low-wear or low-CGM run —
 * a tracker that stopped syncing is the no-sync rule's, not a wear alert.
 */

import type {
  HealthDay,
  HealthDevice,
  HealthRuleKey,
  HealthRuleSettings,
  RedcapPushAlertDetail,
  StudyHealthParticipant,
} from '@trialwear/contract';
import { addDays } from '@trialwear/zone';

/** What the evaluation reads of a participant: the page's own row (the same devices and days). */
export type ParticipantHealth = Pick<StudyHealthParticipant, 'participantCode' | 'devices' | 'days'>;

/** What the evaluation reads of the trial, once per trial. */
export interface TrialHealthState {
  /** The trial's newest finished REDCap push when it failed; null without REDCap or when it was done. */
  redcapPushFailed: RedcapPushAlertDetail | null;
}

export interface HoldingRule {
  ruleKey: HealthRuleKey;
  /** What the rule saw, kept with the alert. */
  detail: Record<string, unknown>;
}

const HOUR = 3_600_000;

/** The last `n` consecutive complete days, newest last, or null when there are not n of them. */
function lastCompleteDays(days: readonly HealthDay[], n: number): HealthDay[] | null {
  if (days.length < 2) return null;
  const complete = days.slice(0, -1);
  const run = complete.slice(-n);
  if (run.length < n) return null;
  for (let i = 1; i < run.length; i++) if (addDays(run[i - 1]!.date, 1) !== run[i]!.date) return null;
  return run;
}

export function holdingRules(
  rules: HealthRuleSettings,
  p: ParticipantHealth,
  now: Date,
  trial: TrialHealthState,
): HoldingRule[] {
  const out: HoldingRule[] = [];
  const linked = p.devices.filter((d) => d.linkStatus === 'active');

  // Always on: a link errored or revoked.
  const broken = p.devices.filter((d) => d.linkStatus === 'errored' || d.linkStatus === 'revoked');
  if (broken.length)
    out.push({
      ruleKey: 'linkError',
      detail: { devices: broken.map((d) => ({ provider: d.provider, linkStatus: d.linkStatus })) },
    });

  // Always on: the trial's last REDCap push failed, for each participant it sends (a coded one).
  if (trial.redcapPushFailed && p.participantCode !== null)
    out.push({ ruleKey: 'redcapPush', detail: { ...trial.redcapPushFailed } });

  if (rules.noSync.enabled) {
    const stale = linked.filter(
      (d) => d.lastSyncAt !== null && now.getTime() - Date.parse(d.lastSyncAt) > rules.noSync.hours * HOUR,
    );
    if (stale.length)
      out.push({
        ruleKey: 'noSync',
        detail: {
          hours: rules.noSync.hours,
          devices: stale.map((d) => ({ provider: d.provider, lastSyncAt: d.lastSyncAt })),
        },
      });
  }

  if (rules.lowBattery.enabled) {
    const low = linked.filter((d) => d.batteryLevel !== null && d.batteryLevel < rules.lowBattery.percent);
    if (low.length)
      out.push({
        ruleKey: 'lowBattery',
        detail: {
          percent: rules.lowBattery.percent,
          devices: low.map((d) => ({ provider: d.provider, batteryLevel: d.batteryLevel })),
        },
      });
  }

  const has = (...providers: HealthDevice['provider'][]) =>
    linked.some((d) => providers.includes(d.provider));

  if (rules.lowWear.enabled && has('fitbit', 'google_health')) {
    const run = lastCompleteDays(p.days, rules.lowWear.days);
    const minutes = rules.lowWear.minHours * 60;
    if (run?.every((d) => d.wearMinutes !== null && d.wearMinutes < minutes))
      out.push({
        ruleKey: 'lowWear',
        detail: {
          minHours: rules.lowWear.minHours,
          days: run.map((d) => ({ date: d.date, wearMinutes: d.wearMinutes })),
        },
      });
  }

  if (rules.lowCgmActive.enabled && has('dexcom')) {
    const run = lastCompleteDays(p.days, rules.lowCgmActive.days);
    if (run?.every((d) => d.cgmActivePercent !== null && d.cgmActivePercent < rules.lowCgmActive.percent))
      out.push({
        ruleKey: 'lowCgmActive',
        detail: {
          percent: rules.lowCgmActive.percent,
          days: run.map((d) => ({ date: d.date, cgmActivePercent: d.cgmActivePercent })),
        },
      });
  }

  if (rules.noBpReading.enabled && has('omron')) {
    // The last N measured days, today included: no reading on any of them.
    const last = p.days.slice(-rules.noBpReading.days);
    const consecutive = last.every((d, i) => i === 0 || addDays(last[i - 1]!.date, 1) === d.date);
    if (last.length === rules.noBpReading.days && consecutive && last.every((d) => d.bpReadings === 0))
      out.push({
        ruleKey: 'noBpReading',
        detail: { days: rules.noBpReading.days, from: last[0]!.date, to: last.at(-1)!.date },
      });
  }
  return out;
}
