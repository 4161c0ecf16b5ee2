/*
 * The study-health page's heat map as plain data (issue #23 §6): the range
 * of the trial's local dates for N days, each cell's kind, colour and
 * accessible name, and the rows' order (those needing attention first). Kept
 * out of the components so 1,000 × 90 cells are computed once per answer
 * and the table renders plain cells.
 */
import type {
  HealthAlert,
  HealthDay,
  HealthLinkStatus,
  HealthRuleKey,
  RedcapPushAlertDetail,
  StudyHealthParticipant,
} from '@trialwear/contract';
import { addDays, localDate } from '@trialwear/zone';

export const DAY_CHOICES = [7, 14, 30, 90] as const;
export type DayChoice = (typeof DAY_CHOICES)[number];

/** The last `days` local dates of the trial's zone, ending today. */
export function healthRange(timezone: string, now: Date, days: DayChoice): { from: string; to: string } {
  const to = localDate(timezone, now);
  return { from: addDays(to, -(days - 1)), to };
}

/** Every date from `from` to `to`, inclusive. */
export function datesOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export const RULE_LABELS: Record<HealthRuleKey, string> = {
  lowWear: 'Low wear',
  noSync: 'No sync',
  lowBattery: 'Low battery',
  linkError: 'Link error',
  lowCgmActive: 'Low CGM active time',
  noBpReading: 'No blood-pressure reading',
  redcapPush: 'REDCap push failed',
};

/** What an alert saw, in words, where the rule's label alone does not say it (a failed REDCap push). */
export function alertDetailText(a: Pick<HealthAlert, 'ruleKey' | 'detail'>): string | null {
  if (a.ruleKey !== 'redcapPush') return null;
  const d = a.detail as Partial<RedcapPushAlertDetail>;
  const retry = d.willRetry ? 'will be retried' : 'not retried: needs an Admin';
  return `Push #${d.pushId ?? '?'}, ${retry}${d.error ? ` — ${d.error}` : ''}`;
}

export const LINK_LABELS: Record<HealthLinkStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  errored: 'Errored',
  revoked: 'Revoked',
  none: 'No device',
};

/** A cell's colour class: wear hours in five steps, CGM, blood pressure, or no data. */
export type CellTone = 'w0' | 'w1' | 'w2' | 'w3' | 'w4' | 'cgmOk' | 'cgmLow' | 'bp' | 'none';

export interface Cell {
  tone: CellTone;
  /** What the cell shows. */
  text: string;
  /** What the cell means, after "code, date: ". */
  meaning: string;
}

/** The wear scale (hours), for the cells and the legend. */
export const WEAR_STEPS: ReadonlyArray<{ tone: CellTone; label: string; below: number }> = [
  { tone: 'w0', label: 'under 2 h', below: 2 },
  { tone: 'w1', label: '2–6 h', below: 6 },
  { tone: 'w2', label: '6–10 h', below: 10 },
  { tone: 'w3', label: '10–16 h', below: 16 },
  { tone: 'w4', label: '16–24 h', below: Number.POSITIVE_INFINITY },
];

/** Hours with one decimal, without a trailing ".0". */
export const hoursText = (minutes: number) => String(Math.round(minutes / 6) / 10);

/** The clinical consensus asks for ≥ 70 % CGM active time. */
const CGM_TARGET = 70;

export function cellOf(day: HealthDay | undefined): Cell {
  if (day?.wearMinutes != null) {
    const h = day.wearMinutes / 60;
    const step = WEAR_STEPS.find((s) => h < s.below) ?? WEAR_STEPS[WEAR_STEPS.length - 1]!;
    const text = hoursText(day.wearMinutes);
    return { tone: step.tone, text, meaning: `${text} h worn` };
  }
  if (day?.cgmActivePercent != null) {
    const pct = Math.round(day.cgmActivePercent);
    return {
      tone: pct >= CGM_TARGET ? 'cgmOk' : 'cgmLow',
      text: `${pct}%`,
      meaning: `CGM active ${pct} % of the day`,
    };
  }
  if (day?.bpReadings != null)
    return {
      tone: day.bpReadings > 0 ? 'bp' : 'w0',
      text: `${day.bpReadings} BP`,
      meaning: `${day.bpReadings} blood-pressure reading${day.bpReadings === 1 ? '' : 's'}`,
    };
  return { tone: 'none', text: '–', meaning: 'no data (not synced yet)' };
}

export interface HeatRow {
  participant: StudyHealthParticipant;
  code: string;
  cells: Cell[];
  /** 0: open alerts or a broken link; 1: no working link; 2: fine. */
  attention: number;
}

const LINK_ATTENTION: Record<HealthLinkStatus, number> = {
  revoked: 0,
  errored: 0,
  pending: 1,
  none: 1,
  active: 2,
};

/** The rows in order: attention first (then more open alerts), then by participant code. */
/** Codes in natural order (BEN-2 before BEN-10); one collator, not one per comparison of 1,000 rows. */
const byCode = new Intl.Collator(undefined, { numeric: true }).compare;

export function heatRows(participants: StudyHealthParticipant[], dates: string[]): HeatRow[] {
  const rows = participants.map((p) => {
    const byDate = new Map(p.days.map((d) => [d.date, d]));
    return {
      participant: p,
      code: p.participantCode ?? `#${p.participantId}`,
      cells: dates.map((d) => cellOf(byDate.get(d))),
      attention: p.openAlerts.length > 0 ? 0 : LINK_ATTENTION[p.linkStatus],
    };
  });
  return rows.sort(
    (a, b) =>
      a.attention - b.attention ||
      b.participant.openAlerts.length - a.participant.openAlerts.length ||
      byCode(a.code, b.code),
  );
}

/** Where a click on a cell goes: the participant's data page of their first device's brand. */
export function dayPageOf(p: StudyHealthParticipant): string {
  const providers = p.devices.map((d) => d.provider);
  if (providers.some((x) => x === 'fitbit' || x === 'google_health')) return '/FitbitParticipant1DayData';
  if (providers.includes('dexcom')) return '/DexcomParticipantDataPage';
  if (providers.includes('omron')) return '/OmronParticipantDataPage';
  return '/ParticipantOverview';
}

/**
 * The link of a participant's page that also works opened directly (a
 * reload, a new tab, the digest e-mail's link): the trial, the participant
 * and the day (a cell's) in the query, as the data pages read them.
 */
export function participantPageLink(path: string, trialId: number, participantId: number, date?: string) {
  const q = new URLSearchParams({ trialId: String(trialId), participantId: String(participantId) });
  if (date) q.set('date', date);
  return `${path}?${q}`;
}
