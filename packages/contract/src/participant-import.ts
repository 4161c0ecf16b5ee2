/*
 * Bulk enrolment (issue #25 item 4): a CSV or XLSX file of participants,
 * previewed row by row with the add-participant call's own rules and
 * messages, then applied in one transaction (decision 045). The columns are
 * the add-participant call's field names.
 */
import { z } from 'zod';

export const PARTICIPANT_IMPORT_COLUMNS = ['codeSuffix', 'email', 'gender', 'age', 'notes'] as const;
export type ParticipantImportColumn = (typeof PARTICIPANT_IMPORT_COLUMNS)[number];

/** Bounds of one upload (decision 045). */
export const PARTICIPANT_IMPORT_LIMITS = {
  /** Participant rows of one file (the header and blank rows not counted). */
  maxRows: 1000,
  /** Bytes of the uploaded file. */
  maxBytes: 2 * 1024 * 1024,
  /** An XLSX (a ZIP) unpacked: all its entries together, so a small file cannot unpack into gigabytes. */
  maxUnzippedBytes: 16 * 1024 * 1024,
} as const;

export const IMPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_MESSAGES = {
  noFile: 'Please choose a CSV or XLSX file of participants.',
  tooBig: `The file can not be more than ${PARTICIPANT_IMPORT_LIMITS.maxBytes / 1024 / 1024} MB.`,
  tooManyRows: `A file can hold at most ${PARTICIPANT_IMPORT_LIMITS.maxRows} participants.`,
  empty: 'The file holds no participants: after the header row, every row is empty.',
  wrongHeader: `The first row must be the header ${PARTICIPANT_IMPORT_COLUMNS.join(',')} (as in the template).`,
  unreadable: 'The file could not be read as CSV (UTF-8) or XLSX.',
  unzippedTooBig: `The XLSX file unpacks to more than ${PARTICIPANT_IMPORT_LIMITS.maxUnzippedBytes / 1024 / 1024} MB and can not be read.`,
  noPreview: 'Please preview the file before creating its participants.',
  extraCells: `This row has more cells than the header's ${PARTICIPANT_IMPORT_COLUMNS.length} columns.`,
  emailTwice: (row: number) => `The same email address is in row ${row} of the file.`,
  codeTwice: (row: number) => `The same participant code is in row ${row} of the file.`,
  changed: (refused: number) =>
    `Nothing was created: the team's participants or its limit changed since the preview, and ${refused} row${refused === 1 ? ' is' : 's are'} now refused. Please check the new preview.`,
  created: (n: number) => `${n} participant${n === 1 ? '' : 's'} created.`,
} as const;

/** A row as read from the file: each column's text ('' when empty). */
export const importRowValuesSchema = z.object({
  codeSuffix: z.string(),
  email: z.string(),
  gender: z.string(),
  age: z.string(),
  notes: z.string(),
});
export type ImportRowValues = z.infer<typeof importRowValuesSchema>;

/** One row's verdict: `row` is its row number in the file (the header is row 1). */
export const importRowVerdictSchema = z.object({
  row: z.number(),
  values: importRowValuesSchema,
  valid: z.boolean(),
  /** The code the participant would get (trial code, dash, suffix), or null without a suffix. */
  participantCode: z.string().nullable(),
  /** Why the row is refused: the add-participant call's messages, by field. */
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type ImportRowVerdict = z.infer<typeof importRowVerdictSchema>;

/** POST /api/trials/{trialId}/participants/import/preview */
export const importPreviewSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  rows: z.array(importRowVerdictSchema),
  validCount: z.number(),
  refusedCount: z.number(),
  /** The team's participant limit (null: none) and how many it has now. */
  maxParticipants: z.number().nullable(),
  teamParticipants: z.number(),
  /** Sent back with the same file to …/import/apply: the apply creates only what this preview showed. */
  previewDigest: z.string(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** POST /api/trials/{trialId}/participants/import/apply: the created participants, by row. */
export const importApplyResultSchema = z.object({
  created: z.array(
    z.object({ row: z.number(), participantId: z.number(), participant_code: z.string().nullable() }),
  ),
  refusedCount: z.number(),
  message: z.string(),
});
export type ImportApplyResult = z.infer<typeof importApplyResultSchema>;

/** GET /api/trials/{trialId}/participants/import/template?format=csv|xlsx */
export const importTemplateQuerySchema = z.object({
  format: z.enum(IMPORT_FORMATS, { message: 'Invalid format' }).default('csv'),
});
