/*
 * REDCap (issue #25 item 3, decision 048): per trial, the connection to a
 * REDCap project (API URL, a write-only token, the fields the portal reads
 * and writes), pushing participant-local daily summaries into a repeating
 * instrument, the push log, and enrolling REDCap records as participants.
 */
import { z } from 'zod';
import { isIsoDate } from './data-export.js';
import { idSchema } from './ids.js';

/** The daily values a push can send, each into the REDCap field the Admin maps it to. */
export const REDCAP_METRICS = [
  'steps',
  'resting_heart_rate',
  'sleep_minutes',
  'wear_minutes',
  'mean_glucose',
  'weight',
] as const;
export type RedcapMetric = (typeof REDCAP_METRICS)[number];

export const REDCAP_METRIC_LABELS: Record<RedcapMetric, string> = {
  steps: 'Steps (day total)',
  resting_heart_rate: 'Resting heart rate (bpm)',
  sleep_minutes: 'Sleep minutes (main sleep ending that day)',
  wear_minutes: 'Wear minutes (tracker on the wrist)',
  mean_glucose: 'Mean glucose (mg/dL, CGM)',
  weight: 'Weight (kg, last of the day)',
};

/** Days one push may cover (a nightly push sends the last REDCAP_NIGHTLY_DAYS). */
export const REDCAP_MAX_PUSH_DAYS = 92;
export const REDCAP_NIGHTLY_DAYS = 7;

export const REDCAP_MESSAGES = {
  apiUrlInvalid: 'Please enter the REDCap API URL, e.g. https://redcap.example.org/api/',
  tokenInvalid: 'A REDCap API token is 32 hexadecimal characters.',
  tokenRequired: "Please enter the project's API token.",
  fieldNameInvalid:
    'A REDCap field name has lower-case letters, digits and underscores, and starts with a letter.',
  notConnected: 'REDCap is not connected for this trial: an Admin enters its API URL and token first.',
  unknownField: (field: string) => `The REDCap project has no field "${field}".`,
  unknownInstrument: (form: string) => `The REDCap project has no instrument "${form}".`,
  notRepeating: (form: string) =>
    `The instrument "${form}" is not a repeating instrument in the REDCap project (repeating instruments are switched on in REDCap's Project Setup).`,
  notOnInstrument: (field: string, form: string) =>
    `The field "${field}" is not on the instrument "${form}".`,
  dateFieldNotDate: (field: string) => `The field "${field}" does not take a date (validation date_ymd).`,
  eventRequired: 'The REDCap project is longitudinal: please enter the unique event name to write into.',
  eventNotAllowed: 'The REDCap project is not longitudinal: leave the event name empty.',
  unknownEvent: (event: string) => `The REDCap project has no event "${event}".`,
  sameField: (field: string) => `The field "${field}" is mapped more than once.`,
  saved: 'REDCap settings saved.',
  refused: (status: number, error: string) => `REDCap refused the request (HTTP ${status}): ${error}`,
  unreachable: (detail: string) => `REDCap could not be reached: ${detail}`,
  unexpected:
    "REDCap answered something that is not its API's JSON: is the URL the project's API URL (ending in /api/)?",
  tested: (title: string, id: number, longitudinal: boolean) =>
    `Connected to REDCap project ${id}, "${title}" (${longitudinal ? 'longitudinal' : 'classic'}).`,
  pushDates: 'Please choose a start date on or before the end date.',
  pushTooLong: `A push covers at most ${REDCAP_MAX_PUSH_DAYS} days.`,
  pushRunning: 'A push to REDCap is already running for this trial. Please wait for it to finish.',
  pushed: (records: number, rows: number) =>
    `Sent ${rows} daily summar${rows === 1 ? 'y' : 'ies'} of ${records} participant${records === 1 ? '' : 's'} to REDCap.`,
  noRecordId: 'This REDCap record has no record id.',
  emailTwice: (recordId: string) => `The same email address is in REDCap record ${recordId}.`,
  codeTwice: (recordId: string) => `The same participant code comes from REDCap record ${recordId}.`,
  enrolChanged: (refused: number) =>
    `Nothing was changed: the REDCap records, the team's participants or its limit changed since the preview, and ${refused} record${refused === 1 ? ' is' : 's are'} now refused. Please check the new preview.`,
  enrolled: (created: number, updated: number) =>
    `${created} participant${created === 1 ? '' : 's'} created, ${updated} updated from REDCap.`,
} as const;

const FIELD_RE = /^[a-z][a-z0-9_]{0,99}$/;
export const redcapFieldNameSchema = z.string().trim().regex(FIELD_RE, REDCAP_MESSAGES.fieldNameInvalid);
const optionalField = z
  .union([redcapFieldNameSchema, z.literal(''), z.null()])
  .optional()
  .transform((v) => (v ? v : null));

export const redcapApiUrlSchema = z
  .string()
  .trim()
  .max(500, REDCAP_MESSAGES.apiUrlInvalid)
  // http(s), a host, no user name or password in it (the token goes in the body, never the URL).
  .regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?(\/[^\s?#]*)?$/i, REDCAP_MESSAGES.apiUrlInvalid);

export const redcapTokenSchema = z
  .string()
  .trim()
  .regex(/^[0-9A-Fa-f]{32}$/, REDCAP_MESSAGES.tokenInvalid)
  .transform((s) => s.toUpperCase());

export const redcapTrialParamsSchema = z.object({ trialId: idSchema });

/** PUT /api/trials/{trialId}/redcap. `token` is write-only: left out, the stored token is kept. */
export const redcapSettingsBodySchema = z.object({
  apiUrl: redcapApiUrlSchema,
  token: z
    .union([redcapTokenSchema, z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  recordIdField: redcapFieldNameSchema,
  emailField: optionalField,
  instrument: redcapFieldNameSchema,
  eventName: optionalField,
  dateField: redcapFieldNameSchema,
  fieldMap: z.partialRecord(z.enum(REDCAP_METRICS), redcapFieldNameSchema),
  pushEnabled: z.boolean(),
});
export type RedcapSettingsBody = z.input<typeof redcapSettingsBodySchema>;

/** A trial's REDCap settings as shown: never the token, only whether one is stored. */
export const redcapSettingsSchema = z.object({
  apiUrl: z.string(),
  tokenSet: z.boolean(),
  recordIdField: z.string(),
  emailField: z.string().nullable(),
  instrument: z.string(),
  eventName: z.string().nullable(),
  dateField: z.string(),
  fieldMap: z.partialRecord(z.enum(REDCAP_METRICS), z.string()),
  pushEnabled: z.boolean(),
  updatedAt: z.string(),
});
export type RedcapSettings = z.infer<typeof redcapSettingsSchema>;

/** GET /api/trials/{trialId}/redcap: null until an Admin connects a project. */
export const redcapSettingsAnswerSchema = z.object({ settings: redcapSettingsSchema.nullable() });
export type RedcapSettingsAnswer = z.infer<typeof redcapSettingsAnswerSchema>;

/** POST …/redcap/test: the stored connection, or the URL and token given (before saving them). */
export const redcapTestBodySchema = z
  .object({
    apiUrl: redcapApiUrlSchema.optional(),
    token: z
      .union([redcapTokenSchema, z.literal('')])
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .prefault({});

export const redcapTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  project: z
    .object({
      projectId: z.number(),
      title: z.string(),
      isLongitudinal: z.boolean(),
      hasRepeatingInstruments: z.boolean(),
    })
    .nullable(),
});
export type RedcapTestResult = z.infer<typeof redcapTestResultSchema>;

const localDate = z.string().refine(isIsoDate, 'Please enter a date as YYYY-MM-DD.');

/** POST …/redcap/push: participant-local dates, both included. */
export const redcapPushBodySchema = z
  .object({ from: localDate, to: localDate })
  .refine((b) => b.from <= b.to, { message: REDCAP_MESSAGES.pushDates, path: ['to'] })
  .refine((b) => (Date.parse(b.to) - Date.parse(b.from)) / 86_400_000 < REDCAP_MAX_PUSH_DAYS, {
    message: REDCAP_MESSAGES.pushTooLong,
    path: ['to'],
  });

export const redcapPushResultSchema = z.object({
  /** Distinct REDCap records written (REDCap's count). */
  records: z.number(),
  /** Instances (participant-days) sent. */
  rows: z.number(),
  message: z.string(),
});
export type RedcapPushResult = z.infer<typeof redcapPushResultSchema>;

export const REDCAP_PUSH_STATUSES = ['running', 'done', 'failed'] as const;

export const redcapLogEntrySchema = z.object({
  id: z.number(),
  trigger: z.enum(['manual', 'nightly']),
  from: z.string(),
  to: z.string(),
  status: z.enum(REDCAP_PUSH_STATUSES),
  attempt: z.number(),
  /** A failed nightly push is tried again later (back-off) until its last attempt. */
  willRetry: z.boolean(),
  records: z.number().nullable(),
  rows: z.number().nullable(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  startedBy: z.string().nullable(),
});
export type RedcapLogEntry = z.infer<typeof redcapLogEntrySchema>;
export const redcapLogSchema = z.object({ entries: z.array(redcapLogEntrySchema) });

export const REDCAP_ENROL_VERDICTS = ['create', 'update', 'unchanged', 'refused'] as const;
export type RedcapEnrolVerdict = (typeof REDCAP_ENROL_VERDICTS)[number];

export const redcapEnrolRowSchema = z.object({
  recordId: z.string(),
  email: z.string().nullable(),
  /** The code the participant has or would get (trial code, dash, record id). */
  participantCode: z.string().nullable(),
  verdict: z.enum(REDCAP_ENROL_VERDICTS),
  /** update: the participant's email now. */
  currentEmail: z.string().nullable(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type RedcapEnrolRow = z.infer<typeof redcapEnrolRowSchema>;

export const redcapEnrolPreviewSchema = z.object({
  rows: z.array(redcapEnrolRowSchema),
  counts: z.object({ create: z.number(), update: z.number(), unchanged: z.number(), refused: z.number() }),
  maxParticipants: z.number().nullable(),
  teamParticipants: z.number(),
  previewDigest: z.string(),
});
export type RedcapEnrolPreview = z.infer<typeof redcapEnrolPreviewSchema>;

export const redcapEnrolApplyBodySchema = z.object({ previewDigest: z.string().regex(/^[0-9a-f]{64}$/) });
export const redcapEnrolApplyResultSchema = z.object({
  created: z.array(
    z.object({ recordId: z.string(), participantId: z.number(), participantCode: z.string() }),
  ),
  updated: z.number(),
  message: z.string(),
});
export type RedcapEnrolApplyResult = z.infer<typeof redcapEnrolApplyResultSchema>;
