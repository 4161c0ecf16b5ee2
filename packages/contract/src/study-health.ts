/*
 * Study health (issue #23 §8): the rules of a trial, its alerts, the digest
 * opt-in, and the page's table. Wear is counted per participant-local day;
 * a null measure of a day is "no data" (the provider has not synced it yet),
 * never 0. The trial's time zone sets the page's columns and the digest's
 * day; each participant's days stay their own local days.
 */
import { daysFrom, isKnownZone } from '@trialwear/zone';
import { z } from 'zod';
import { EXPORT_FILE_PREFIX } from './constants.js';
import { isIsoDate } from './data-export.js';
import { LINK_PROVIDERS } from './devices.js';
import { idSchema } from './ids.js';

/**
 * The rules an alert can come from. linkError and redcapPush are always on (not in the rules'
 * settings): redcapPush holds for each coded participant of a trial whose newest finished REDCap
 * push failed (decision 048).
 */
export const HEALTH_RULE_KEYS = [
  'lowWear',
  'noSync',
  'lowBattery',
  'linkError',
  'lowCgmActive',
  'noBpReading',
  'redcapPush',
] as const;
export const healthRuleKeySchema = z.enum(HEALTH_RULE_KEYS);
export type HealthRuleKey = z.infer<typeof healthRuleKeySchema>;

/** Bounds of the rules' numbers, shown in the messages. */
export const HEALTH_RULE_LIMITS = {
  maxDays: 30,
  maxNoSyncHours: 720,
  noteMax: 1000,
  defaultDays: 14,
  maxRangeDays: 90,
} as const;

export const STUDY_HEALTH_MESSAGES = {
  timezoneRequired: 'Time zone is required',
  timezoneUnknown: 'Time zone must be a known IANA time zone, e.g. Europe/Berlin',
  enabled: 'Choose whether the rule is on or off',
  wearHours: 'Hours must be between 1 and 24',
  days: `Days must be a whole number between 1 and ${HEALTH_RULE_LIMITS.maxDays}`,
  noSyncHours: `Hours without a sync must be a whole number between 1 and ${HEALTH_RULE_LIMITS.maxNoSyncHours}`,
  batteryPercent: 'Battery level must be a whole number between 1 and 99 %',
  cgmPercent: 'CGM active time must be a whole number between 1 and 100 %',
  digestTime: 'Digest time must be a time of day written HH:MM (24-hour clock)',
  noteRequired: 'A note is required',
  noteTooLong: `The note can not be more than ${HEALTH_RULE_LIMITS.noteMax} characters`,
  digestRequired: 'Choose whether to receive the daily digest',
  alertNotFound: 'This alert does not exist or is not in one of your trials.',
  alreadyAcknowledged: 'This alert has already been acknowledged.',
  dateInvalid: 'Dates must be written YYYY-MM-DD',
  rangeOrder: 'The start date must not be after the end date',
  rangeTooLong: `At most ${HEALTH_RULE_LIMITS.maxRangeDays} days can be shown at once`,
  reportFormat: 'Format must be csv or xlsx',
} as const;
const M = STUDY_HEALTH_MESSAGES;

const enabled = z.boolean({ error: M.enabled });
/** One check, so a value breaking two bounds (−0.5: not whole, below 1) gets one message. */
const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).refine((n) => Number.isInteger(n) && n >= min && n <= max, message);
const days = wholeNumber(1, HEALTH_RULE_LIMITS.maxDays, M.days);

export const timezoneSchema = z
  .string({ error: M.timezoneRequired })
  .trim()
  .min(1, M.timezoneRequired)
  .max(64, M.timezoneUnknown)
  // Only when the length is right: one message per field.
  .refine((tz) => tz.length === 0 || tz.length > 64 || isKnownZone(tz), M.timezoneUnknown);

/** The switchable rules (without the zone): what trial_health_rules.rules stores. */
export const healthRuleSettingsSchema = z.object({
  lowWear: z.object({
    enabled,
    minHours: z.number({ error: M.wearHours }).min(1, M.wearHours).max(24, M.wearHours),
    days,
  }),
  noSync: z.object({ enabled, hours: wholeNumber(1, HEALTH_RULE_LIMITS.maxNoSyncHours, M.noSyncHours) }),
  lowBattery: z.object({ enabled, percent: wholeNumber(1, 99, M.batteryPercent) }),
  lowCgmActive: z.object({ enabled, percent: wholeNumber(1, 100, M.cgmPercent), days }),
  noBpReading: z.object({ enabled, days }),
  digest: z.object({
    enabled,
    localTime: z.string({ error: M.digestTime }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, M.digestTime),
  }),
});
export type HealthRuleSettings = z.infer<typeof healthRuleSettingsSchema>;

/** GET and PUT /api/studyHealth/trials/{trialId}/rules: every field is required on PUT. */
export const healthRulesSchema = healthRuleSettingsSchema.extend({ timezone: timezoneSchema });
export type HealthRules = z.infer<typeof healthRulesSchema>;

/** The rules of a trial that has none stored (its zone is chosen by the server). */
export const DEFAULT_HEALTH_RULE_SETTINGS: HealthRuleSettings = {
  lowWear: { enabled: true, minHours: 10, days: 2 },
  noSync: { enabled: true, hours: 48 },
  lowBattery: { enabled: true, percent: 15 },
  lowCgmActive: { enabled: true, percent: 70, days: 2 },
  noBpReading: { enabled: true, days: 3 },
  digest: { enabled: true, localTime: '08:00' },
};

/** GET /api/studyHealth/trials/{trialId}/rules also says whether they were ever saved. */
export const healthRulesAnswerSchema = healthRulesSchema.extend({
  isDefault: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type HealthRulesAnswer = z.infer<typeof healthRulesAnswerSchema>;

// ---------------------------------------------------------------- alerts

export const HEALTH_ALERT_STATUSES = ['open', 'acknowledged', 'closed'] as const;
/** open: holds, not acknowledged; acknowledged: holds, acknowledged; closed: the condition cleared. */
export const healthAlertStatusSchema = z.enum(HEALTH_ALERT_STATUSES);
export type HealthAlertStatus = z.infer<typeof healthAlertStatusSchema>;

/** GET /api/studyHealth/trials/{trialId}/alerts?status=… (no status: all, open first, newest first). */
export const healthAlertListQuerySchema = z.object({ status: healthAlertStatusSchema.optional() });

/**
 * A redcapPush alert's detail: the trial's newest finished push that failed (its log row, GET
 * …/redcap/log), when it failed, REDCap's error (or the portal's), and whether the nightly job
 * tries it again (false: it needs the Admin).
 */
export interface RedcapPushAlertDetail {
  pushId: number;
  failedAt: string;
  error: string | null;
  willRetry: boolean;
}

export const healthAlertSchema = z.object({
  id: z.number(),
  participantId: z.number(),
  participantCode: z.string().nullable(),
  ruleKey: healthRuleKeySchema,
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.number().nullable(),
  /** The acknowledging user's name, for the list. */
  acknowledgedByName: z.string().nullable(),
  note: z.string().nullable(),
  /** What the rule saw (e.g. the days and their wear), as the evaluation wrote it. */
  detail: z.record(z.string(), z.unknown()),
});
export type HealthAlert = z.infer<typeof healthAlertSchema>;

/** POST /api/studyHealth/alerts/{alertId}/acknowledge */
export const acknowledgeAlertBodySchema = z.object({
  note: z
    .string({ error: M.noteRequired })
    .trim()
    .min(1, M.noteRequired)
    .max(HEALTH_RULE_LIMITS.noteMax, M.noteTooLong),
});
export type AcknowledgeAlertBody = z.infer<typeof acknowledgeAlertBodySchema>;

/**
 * GET /api/studyHealth/alertCount: the navigation's badge — alerts of the
 * trials the signed-in user sees that are open (not closed, not acknowledged).
 */
export const healthAlertCountSchema = z.object({ open: z.number() });
export type HealthAlertCount = z.infer<typeof healthAlertCountSchema>;

// ---------------------------------------------------------------- digest opt-in

/** PUT /api/studyHealth/trials/{trialId}/subscription, for the signed-in user. */
export const healthSubscriptionBodySchema = z.object({ digest: z.boolean({ error: M.digestRequired }) });
export type HealthSubscriptionBody = z.infer<typeof healthSubscriptionBodySchema>;
export const healthSubscriptionSchema = z.object({ trialId: z.number(), digest: z.boolean() });
export type HealthSubscription = z.infer<typeof healthSubscriptionSchema>;

// ---------------------------------------------------------------- the page's table

const isoDate = z.string().refine((s) => isIsoDate(s), M.dateInvalid);

const rangeShape = { from: isoDate.optional(), to: isoDate.optional() };
function checkRange(q: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  if (!q.from || !q.to) return;
  if (q.from > q.to) ctx.addIssue({ code: 'custom', message: M.rangeOrder, path: ['from'] });
  else if (daysFrom(q.from, q.to) >= HEALTH_RULE_LIMITS.maxRangeDays)
    ctx.addIssue({ code: 'custom', message: M.rangeTooLong, path: ['from'] });
}

/** GET /api/studyHealth/trials/{trialId}?from&to: default the trial zone's last 14 days, at most 90. */
export const studyHealthQuerySchema = z.object(rangeShape).superRefine(checkRange);
export type StudyHealthQuery = z.infer<typeof studyHealthQuerySchema>;

/**
 * A link's state for the page: active (authorized), pending (consent not
 * given yet), errored, revoked; none for a participant without a link.
 */
export const HEALTH_LINK_STATUSES = ['active', 'pending', 'errored', 'revoked', 'none'] as const;
export const healthLinkStatusSchema = z.enum(HEALTH_LINK_STATUSES);
export type HealthLinkStatus = z.infer<typeof healthLinkStatusSchema>;

export const healthDaySchema = z.object({
  /** The participant-local date. */
  date: z.string(),
  /** Minutes with a heart-rate sample; null = no data. */
  wearMinutes: z.number().nullable(),
  cgmActivePercent: z.number().nullable(),
  bpReadings: z.number().nullable(),
  metricsPresent: z.array(z.string()),
});
export type HealthDay = z.infer<typeof healthDaySchema>;

export const healthDeviceSchema = z.object({
  participantDeviceId: z.number(),
  provider: z.enum(LINK_PROVIDERS),
  linkStatus: healthLinkStatusSchema,
  /** The provider's lastSyncTime as the sync last saw it; null until known. */
  lastSyncAt: z.string().nullable(),
  batteryLevel: z.number().nullable(),
});
export type HealthDevice = z.infer<typeof healthDeviceSchema>;

export const studyHealthParticipantSchema = z.object({
  participantId: z.number(),
  participantCode: z.string().nullable(),
  /** Of the participant's devices, the one needing attention most: the oldest sync, … */
  lastSyncAt: z.string().nullable(),
  /** … the lowest battery, … */
  batteryLevel: z.number().nullable(),
  /** … and the worst link (revoked, errored, pending, active; none without a link). */
  linkStatus: healthLinkStatusSchema,
  devices: z.array(healthDeviceSchema),
  /** One entry per local date of the range that has a stored day (the devices' days merged); missing = no data. */
  days: z.array(healthDaySchema),
  /** The rules whose alerts are not closed (acknowledged ones included: the condition still holds). */
  openAlerts: z.array(healthRuleKeySchema),
});
export type StudyHealthParticipant = z.infer<typeof studyHealthParticipantSchema>;

export const studyHealthSchema = z.object({
  trialId: z.number(),
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  rules: healthRulesSchema,
  /** The signed-in user's digest opt-in for this trial. */
  digestSubscribed: z.boolean(),
  participants: z.array(studyHealthParticipantSchema),
});
export type StudyHealth = z.infer<typeof studyHealthSchema>;

export const healthTrialParamsSchema = z.object({ trialId: idSchema });
export const healthAlertParamsSchema = z.object({ alertId: idSchema });

// ---------------------------------------------------------------- the compliance report

/**
 * The definitions of the study-health measures, one source for the page's
 * legend, the batch export's data_dictionary.csv and the report's
 * Definitions sheet (docs/decisions/034-compliance-report.md). `key` is the
 * report's column and the dictionary's metric_key.
 */
export const STUDY_HEALTH_DEFINITIONS = [
  {
    key: 'wear_minutes',
    name: 'Wear minutes',
    unit: 'min',
    deviceType: 'fitness_tracker',
    description:
      "Minutes of the participant's local day with a heart-rate sample in the provider's 1-minute intraday heart rate. No value (null) = the provider had no data for that day yet; 0 = synced but not worn.",
  },
  {
    key: 'cgm_active_percent',
    name: 'CGM active time',
    unit: '%',
    deviceType: 'cgm',
    description:
      "Share of the day's 288 expected 5-minute CGM readings that arrived (the clinical consensus asks at least 70 %). No value = no data for that day.",
  },
  {
    key: 'bp_readings',
    name: 'Blood-pressure readings',
    unit: 'count',
    deviceType: 'blood_pressure',
    description:
      "Number of blood-pressure readings of the participant's local day (all the participant's monitors). No value = no data for that day.",
  },
] as const;
export type StudyHealthDefinitionKey = (typeof STUDY_HEALTH_DEFINITIONS)[number]['key'];
export const studyHealthDefinition = (key: StudyHealthDefinitionKey) =>
  STUDY_HEALTH_DEFINITIONS.find((d) => d.key === key)!;

export const STUDY_HEALTH_REPORT_FORMATS = ['csv', 'xlsx'] as const;
export type StudyHealthReportFormat = (typeof STUDY_HEALTH_REPORT_FORMATS)[number];

/** GET /api/studyHealth/trials/{trialId}/report?format=csv|xlsx&from&to: the table's range rules. */
export const studyHealthReportQuerySchema = z
  .object({ ...rangeShape, format: z.enum(STUDY_HEALTH_REPORT_FORMATS, { error: M.reportFormat }) })
  .superRefine(checkRange);
export type StudyHealthReportQuery = z.infer<typeof studyHealthReportQuerySchema>;

/** The report's day rows: one per participant × local date of the range. */
export const STUDY_HEALTH_REPORT_DAY_COLUMNS = [
  'participant_code',
  'local_date',
  'wear_minutes',
  'cgm_active_percent',
  'bp_readings',
  'steps',
  'metrics_present',
  'last_sync_at',
  'battery_level',
  'link_status',
] as const;

/** The report's alert rows: one per alert not closed (acknowledged ones included: the condition holds). */
export const STUDY_HEALTH_REPORT_ALERT_COLUMNS = [
  'participant_code',
  'rule',
  'opened_at',
  'detail',
  'acknowledged_at',
  'acknowledged_by',
  'note',
] as const;

/** The report's file name: the product's export prefix, the trial and the range. */
export const studyHealthReportFileName = (
  trialId: number,
  range: { from: string; to: string },
  format: StudyHealthReportFormat,
) => `${EXPORT_FILE_PREFIX}study_health_trial${trialId}_${range.from}_${range.to}.${format}`;
