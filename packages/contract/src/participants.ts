import { z } from 'zod';
import { LIMITS } from './constants.js';
import { clockTime, PROVIDER_LIMIT_MESSAGES } from './device-data-rules.js';
import { idSchema } from './ids.js';
import { trialSchema } from './trials.js';

/** Participants (core §3, §5, §8) with the exact messages. */
export const GENDERS = ['None', 'female', 'male', 'other'] as const;

export const PARTICIPANT_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  ageAboveZero: 'Value must be greater than zero',
  ageMaxDigits: 'Age cannot be more than 3 digits',
  ageDigits: 'Age must be only digits',
  notesTooLong: `Notes can not be more than ${LIMITS.notesMax} characters`,
  suffixRule: 'Allowed: digits 0-9 and underscore _ (max 12)',
  /** Not in the spec (its form offers a choice): a typed value, e.g. a bulk import's cell. */
  genderInvalid: `Gender must be one of ${GENDERS.join(', ')}`,
  codeTaken: 'Participant code is already taken in this trial.',
  emailTaken: 'A participant with this email address already exists. Please use a different email address.',
  limitReached:
    'Cannot add participant: Your team has reached the maximum number of allowed participants for this trial.',
  network: 'Network error: Please check your internet connection and try again.',
  server: 'Server error: Please try again later. If the problem persists, contact support.',
  validation: 'Please ensure all required fields are filled in correctly.',
  other:
    'Unable to add participant. Please verify all information is correct and try again. Contact support if the issue continues.',
  noId: 'Error: Adding new participant failed. NO ID!',
  trialCodeLoad: 'Could not load trial code prefix',
  trialCodeError: 'Error loading trial code',
  editFailed: 'Error: editing participant failed!',
  updatedButCodeFailed: 'Participant updated but code change failed.',
  codeNotFound: 'Code change failed: participant or trial not found.',
  codeInvalid: 'Code change failed: invalid suffix.',
  deleteFailed: 'Error: deleting participant failed!',
  notFound: "Something went wrong! We could not find participant's info.",
  emptyTrial: 'No participants found for this trial',
} as const;

/** Server reasons shown as labels (core §8). */
export const REASON_LABELS: Record<string, string> = {
  ValidationError: 'Validation Error',
  DBError: 'Database Error',
};

/** Suffix: digits and underscore, 1-12, forced to uppercase (a no-op for this charset, kept for the rule's sake). */
export const codeSuffixSchema = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.string().regex(new RegExp(`^[0-9_]{1,${LIMITS.codeSuffixMax}}$`), PARTICIPANT_MESSAGES.suffixRule));

/** Age as typed in the form: optional; digits only; at most 3 digits; above zero. */
export const ageInputSchema = z
  .string()
  .trim()
  .refine((s) => s === '' || /^\d+$/.test(s), { message: PARTICIPANT_MESSAGES.ageDigits, abort: true })
  .refine((s) => s.length <= LIMITS.ageMaxDigits, { message: PARTICIPANT_MESSAGES.ageMaxDigits, abort: true })
  .refine((s) => s === '' || Number(s) > 0, { message: PARTICIPANT_MESSAGES.ageAboveZero });

export const participantEmailSchema = z
  .string()
  .trim()
  .min(1, { message: PARTICIPANT_MESSAGES.emailRequired, abort: true })
  .pipe(z.email(PARTICIPANT_MESSAGES.emailInvalid));

const notesSchema = z.string().max(LIMITS.notesMax, PARTICIPANT_MESSAGES.notesTooLong);
const ageSchema = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v)))
  .pipe(ageInputSchema)
  .transform((s) => (s === '' ? null : Number(s)));

/** POST /api/trialParticipants. Email is required only when the team shows email (checked on the server). */
export const addParticipantSchema = z.object({
  trialId: idSchema,
  gender: z.enum(GENDERS, PARTICIPANT_MESSAGES.genderInvalid).default('None'),
  age: ageSchema,
  email: z.string().trim().optional().default(''),
  notes: notesSchema.optional().default(''),
  codeSuffix: z
    .union([codeSuffixSchema, z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
});

/** PUT /api/participant: the editable fields (the code changes through PATCH …/code). */
export const editParticipantSchema = z.object({
  id: idSchema,
  gender: z.enum(GENDERS, PARTICIPANT_MESSAGES.genderInvalid).optional(),
  age: ageSchema,
  email: z.string().trim().optional(),
  notes: notesSchema.optional(),
});

/** PATCH /api/trialParticipants/{trialId}/{participantId}/code: null clears the code. */
export const codeChangeSchema = z.object({ suffix: z.union([codeSuffixSchema, z.null()]) });

export const participantSchema = z.object({
  id: z.number(),
  trialId: z.number(),
  email: z.string().optional(),
  gender: z.enum(GENDERS),
  age: z.number().nullable(),
  notes: z.string().optional(),
  participant_code: z.string().nullable(),
  participant_code_suffix: z.string().nullable(),
  created_at: z.string(),
});
export type Participant = z.infer<typeof participantSchema>;

/** Hidden participant fields of a team; null/unknown means both hidden (core §3). */
export const HIDDEN_FIELD_NAMES = ['email', 'notes'] as const;
export type HiddenField = (typeof HIDDEN_FIELD_NAMES)[number];
export function effectiveHiddenFields(setting: readonly string[] | null | undefined): HiddenField[] {
  if (setting == null) return ['email', 'notes'];
  return HIDDEN_FIELD_NAMES.filter((f) => setting.includes(f));
}

/* Answers of the participant calls, exactly as the server's routes declare them. */

/**
 * Sync health of a participant's devices (issue #11 item 5), over their
 * authorized or errored links: 'none' no link to sync, 'pending' never
 * synced yet, 'error' a link errored or the last sync failed, 'stale' no
 * data for SYNC_STALE_DAYS days, 'ok' data flowing. rowsStored sums the
 * devices; daysWithData7d (wear-time proxy: local days of the last 7 with
 * data) and the dates are the best device's.
 */
export const SYNC_STATUSES = ['ok', 'stale', 'error', 'pending', 'none', 'waiting'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];
export const SYNC_STALE_DAYS = 3;
export const SYNC_STATUS_TEXT: Record<SyncStatus, string> = {
  ok: 'Syncing',
  stale: `No data for ${SYNC_STALE_DAYS} days`,
  error: 'Sync error',
  pending: 'Not synced yet',
  none: 'No device',
  /** Stopped by a provider limit until `resumesAt` (issue #21): `syncStatusText` says until when. */
  waiting: "Waiting for the provider's limit",
};
export const participantSyncSchema = z.object({
  status: z.enum(SYNC_STATUSES),
  lastSuccessAt: z.string().nullable(),
  lastError: z.string().nullable(),
  rowsStored: z.number(),
  daysWithData7d: z.number(),
  lastDataDate: z.string().nullable(),
  /** 'waiting': when the provider may be called again (ISO instant). */
  resumesAt: z.string().nullable().optional(),
});
export type ParticipantSync = z.infer<typeof participantSyncSchema>;

/** The status as a sentence; 'waiting' with the time it resumes on the viewer's clock. */
export function syncStatusText(
  sync: Pick<ParticipantSync, 'status' | 'resumesAt'>,
  timeZone?: string,
): string {
  if (sync.status === 'waiting' && sync.resumesAt)
    return PROVIDER_LIMIT_MESSAGES.sync(clockTime(sync.resumesAt, timeZone));
  return SYNC_STATUS_TEXT[sync.status];
}

/** A row of the trial page: the participant, the providers of their device links and their sync health. */
export const listedParticipantSchema = participantSchema.extend({
  authorized_devices: z.array(z.string()),
  sync: participantSyncSchema,
});
export type ListedParticipant = z.infer<typeof listedParticipantSchema>;

/**
 * Server-side paging, filtering and sorting of a trial's list (issue #24:
 * the trial page asks one page at a time). All optional: without any, the
 * whole list by id as the spec's call answers it. `filter` is the table's
 * global filter (case-insensitive substring of any column's text, as the
 * table showed it); `sort` one column, `order` its direction (decision 040).
 */
export const PARTICIPANT_PAGE_SIZE_MAX = 500;
export const PARTICIPANT_SORT_COLUMNS = [
  'id',
  'participant_code',
  'email',
  'gender',
  'age',
  'authorized_devices',
  'sync',
] as const;
export type ParticipantSortColumn = (typeof PARTICIPANT_SORT_COLUMNS)[number];
export const trialParticipantsQuerySchema = z
  .object({
    page: z.coerce
      .number({ message: 'Invalid page' })
      .int('Invalid page')
      .min(1, 'Invalid page')
      .max(1_000_000, 'Invalid page')
      .optional(),
    pageSize: z.coerce
      .number({ message: 'Invalid page size' })
      .int('Invalid page size')
      .min(1, 'Invalid page size')
      .max(PARTICIPANT_PAGE_SIZE_MAX, `Page size can not be more than ${PARTICIPANT_PAGE_SIZE_MAX}`)
      .optional(),
    filter: z
      .string()
      .max(
        LIMITS.savedFilterMaxChars - 1,
        `Filter can not be more than ${LIMITS.savedFilterMaxChars - 1} characters`,
      )
      .optional(),
    sort: z.enum(PARTICIPANT_SORT_COLUMNS, { message: 'Invalid sort' }).optional(),
    order: z.enum(['asc', 'desc'], { message: 'Invalid order' }).optional(),
  })
  .transform(({ page, pageSize, filter, sort, order }) => ({
    page:
      page === undefined && pageSize === undefined
        ? undefined
        : { page: page ?? 1, pageSize: pageSize ?? 50 },
    filter: filter ? filter : undefined,
    sort:
      sort === undefined && order === undefined ? undefined : { by: sort ?? 'id', desc: order === 'desc' },
  }));
export type TrialParticipantsQuery = z.output<typeof trialParticipantsQuerySchema>;
/** The query string of GET /api/trialParticipants/{trialId} as the web sends it. */
export type TrialParticipantsParams = z.input<typeof trialParticipantsQuerySchema>;

/** GET /api/trialParticipants/{trialId}; `page`, `pageSize` and `total` (the rows matching the filter) only when a page was asked for. */
export const trialParticipantsSchema = z.object({
  hiddenFields: z.array(z.enum(HIDDEN_FIELD_NAMES)),
  participants: z.array(listedParticipantSchema),
  page: z.number().optional(),
  pageSize: z.number().optional(),
  total: z.number().optional(),
});
export type TrialParticipants = z.infer<typeof trialParticipantsSchema>;

/** POST /api/trialParticipants */
export const addParticipantResultSchema = z.object({
  participantId: z.number(),
  participant_code: z.string().nullable(),
  participant_code_suffix: z.string().nullable(),
  participant: participantSchema,
});
export type AddParticipantResult = z.infer<typeof addParticipantResultSchema>;

/** PUT /api/participant */
export const editParticipantResultSchema = z.object({ participant: participantSchema });
export type EditParticipantResult = z.infer<typeof editParticipantResultSchema>;

/** PATCH /api/trialParticipants/{trialId}/{participantId}/code */
export const codeChangeResultSchema = z.object({
  participant_code: z.string().nullable(),
  changed: z.boolean(),
});
export type CodeChangeResult = z.infer<typeof codeChangeResultSchema>;

/** DELETE /api/participant */
export const deleteParticipantResultSchema = z.object({ success: z.literal(true), id: z.number() });
export type DeleteParticipantResult = z.infer<typeof deleteParticipantResultSchema>;

/**
 * GET /api/teamParticipants: every participant of the trials the caller may
 * see in the session's team (the /ParticipantsPage list), with those trials,
 * so that a row can name its trial and open it.
 */
export const teamParticipantsSchema = z.object({
  hiddenFields: z.array(z.enum(HIDDEN_FIELD_NAMES)),
  trials: z.array(trialSchema),
  participants: z.array(listedParticipantSchema),
});
export type TeamParticipants = z.infer<typeof teamParticipantsSchema>;
