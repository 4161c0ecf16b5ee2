/*
 * Batch data export (admin §1–§9, issue #12): the page's lists, the request
 * and its validation (§5, the same rules on the web and the server), the
 * jobs panel (latest 10, polled every 10 s), download, delete, and our
 * cancel call (the spec leaves it open: `POST /api/dataExport/jobs/{id}/cancel`).
 *
 * Date rules: both dates are participant-local calendar dates (YYYY-MM-DD),
 * inclusive. The range end − start is at most 365 days (§9: 31536000000 ms)
 * and the start is no older than 365 days before today; both break the same
 * message 'Date range cannot exceed 1 year.'. "Today" depends on a clock, so
 * the static body schema checks everything else and `exportDateIssue` (used
 * by `batchExportFormSchema(today)` on the web and by the server's service
 * with its clock) checks the age of the start and that the end is not in the
 * future (ours: 'End date cannot be in the future.'; on the server with the
 * zone furthest ahead, UTC+14, so that no caller's own today is refused).
 *
 * File name rules of ours: the download is `<fileName>.zip`, so a name that
 * Windows cannot save (a device name such as CON or NUL, with or without an
 * extension or trailing dots/spaces) or a name of dots only is refused.
 */
import { z } from 'zod';
import { EXPORT } from './constants.js';
import { idSchema } from './ids.js';

export const EXPORT_MESSAGES = {
  // §5, in the order of the form
  trialRequired: 'Please select a trial.',
  deviceRequired: 'Please select a device.',
  participantsRequired: 'Please select at least one participant.',
  datesRequired: 'Please select both start and end dates.',
  startAfterEnd: 'Start date must be on or before end date.',
  rangeTooLong: 'Date range cannot exceed 1 year.',
  metricsRequired: 'Please select at least one metric.',
  fileNameRequired: 'Please enter a file name.',
  // file name rules of ours (it becomes `<fileName>.zip` in a Content-Disposition header)
  fileNameInvalid:
    'The file name may contain only letters, digits, spaces, dots, hyphens and underscores (at most 100 characters).',
  fileNameReserved:
    'This file name is reserved (such as CON, PRN, AUX, NUL, COM1 to COM9, LPT1 to LPT9, also with an extension, or only dots). Please choose another name.',
  // the data files' format, ours (issue #24)
  formatInvalid: "The export format must be 'csv', 'parquet', 'fhir' or 'omh'.",
  // date rule of ours: the store holds nothing after today
  endInFuture: 'End date cannot be in the future.',
  // the success modal (§2)
  successTitle: 'Export Started',
  success: 'Your export is being processed in the background. You will receive an email when it is ready.',
  // §8
  failedTitle: 'Export Failed',
  loadTrials: 'Failed to load trials',
  loadDevices: 'Failed to load devices',
  loadParticipants: 'Failed to load participants',
  loadMetrics: 'Failed to load metrics',
  unableToConnect: 'Unable to connect to the server. Please check your connection and try again.',
  endpointNotFound: 'Export endpoint not found',
  authError: 'Authentication error. Please log in again.',
  // server refusals (400/404/409/410), displayable
  trialNotFound: 'Trial not found',
  deviceNotFound: 'Device not found for your team',
  participantsNotEligible:
    'One or more selected participants are not in this trial or have no linked device of this type.',
  metricsNotAvailable:
    'One or more selected metrics are not available for this device or not enabled for your team.',
  jobNotFound: 'Export job not found',
  notReady: 'This export is not ready for download.',
  expired:
    'This export has expired: export files are kept 7 days and this one has been deleted. Please request the export again.',
  cannotCancel: 'Only pending or processing export jobs can be cancelled.',
  cannotDelete: 'Only completed, failed, cancelled or expired export jobs can be deleted.',
  // 429: the per-user bound (EXPORT_LIMITS.activePerUser)
  tooManyActive:
    'You already have 3 exports waiting or running. Wait for one to finish, or cancel one, before requesting another.',
  // answers and panel texts
  cancelled: 'Export job cancelled.',
  deleted: 'Export job deleted.',
  deleteTitle: 'Delete Export Job',
  deleteConfirm: 'The export file will be permanently removed. This cannot be undone.',
  cancelTitle: 'Cancel Export Job',
  cancelConfirm: 'The export stops and writes no file. Start a new export to get the data.',
  expiredNote: 'Expired: the file was deleted after 7 days.',
  cancelledByUser: 'Cancelled by the user.',
  // a job failed on a full or read-only export store (issue 27): a retry fails the same way
  storageUnavailable:
    'The export storage is full or not writable. An administrator must free space or fix its permissions; retrying will not help until then.',
} as const;

/** §8 'Server error (status)' for a 5xx answer. */
export const exportServerError = (status: number) => `Server error (${status})`;

/** The §8 text for a failed call of the page (status 0: no answer). */
export function exportCallError(status: number): string {
  if (status === 0) return EXPORT_MESSAGES.unableToConnect;
  if (status === 401 || status === 403) return EXPORT_MESSAGES.authError;
  if (status === 404) return EXPORT_MESSAGES.endpointNotFound;
  if (status >= 500) return exportServerError(status);
  return EXPORT_MESSAGES.failedTitle;
}

/** Constants of §9 and ours (all from `EXPORT` in constants.ts, named here for the page and the jobs). */
export const EXPORT_LIMITS = {
  jobsListLimit: EXPORT.jobsListLimit,
  pollMs: EXPORT.pollMs,
  filesKeptDays: EXPORT.filesKeptDays,
  maxRangeMs: EXPORT.maxRangeMs,
  maxRangeDays: 365,
  /** Jobs of one team running at once; the rest wait, taken in turn across requesters. */
  runningPerTeam: 2,
  /**
   * Jobs of one user running at once: one user's backlog never holds every
   * slot of the team, so a colleague's export starts at once (issue #21 §2).
   */
  runningPerUser: 1,
  /** Pending or processing jobs of one user; a further request is refused (429, `tooManyActive`). */
  activePerUser: 3,
  fileNameMax: 100,
  participantsMax: 10_000,
  metricsMax: 100,
} as const;

export const EXPORT_MODES = EXPORT.modes;
export const exportModeSchema = z.enum(EXPORT_MODES);
export type ExportMode = z.infer<typeof exportModeSchema>;

/**
 * The data files' format (issue #24, decision 042): `csv` (the spec's CSV in
 * a ZIP, the default when absent) or `parquet` (one typed Parquet file per
 * metric, whatever the export mode; the data dictionary and manifest as for CSV)
 * `fhir` (FHIR R4 NDJSON: Patient, Device and Observation files, decision 046)
 * or `omh` (Open mHealth data points, one NDJSON file per body schema, decision 047).
 */
export const EXPORT_FORMATS = EXPORT.formats;
export const exportFormatSchema = z.enum(EXPORT_FORMATS, { message: EXPORT_MESSAGES.formatInvalid });
export type ExportFormat = z.infer<typeof exportFormatSchema>;
/** The format's name as the page shows it. */
export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  csv: 'CSV',
  parquet: 'Parquet',
  fhir: 'FHIR R4 (NDJSON)',
  omh: 'Open mHealth (NDJSON)',
};

// ---------------------------------------------------------------- dates

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDate(s: unknown): s is string {
  if (typeof s !== 'string' || !DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const dayMs = (s: string) => Date.parse(`${s}T00:00:00Z`);

/**
 * The §5 date rules, in order; `today` (YYYY-MM-DD) adds the "start not older
 * than one year" rule and ours, "end not in the future", which is checked
 * against `latestToday` when given (the server: the date in the zone furthest
 * ahead; the web: the browser's today for both). Answers the message of the
 * first rule broken, or null.
 */
export function exportDateIssue(
  startDate: string | null | undefined,
  endDate: string | null | undefined,
  today?: string,
  latestToday: string | undefined = today,
): string | null {
  if (!isIsoDate(startDate) || !isIsoDate(endDate)) return EXPORT_MESSAGES.datesRequired;
  const start = dayMs(startDate);
  const end = dayMs(endDate);
  if (start > end) return EXPORT_MESSAGES.startAfterEnd;
  if (end - start > EXPORT.maxRangeMs) return EXPORT_MESSAGES.rangeTooLong;
  if (today !== undefined && isIsoDate(today) && dayMs(today) - start > EXPORT.maxRangeMs)
    return EXPORT_MESSAGES.rangeTooLong;
  if (latestToday !== undefined && isIsoDate(latestToday) && end > dayMs(latestToday))
    return EXPORT_MESSAGES.endInFuture;
  return null;
}

/**
 * The date field that carries a date message: the end for a missing end and
 * for an end in the future, else the start (as the form shows it).
 */
export function exportDateIssueField(issue: string, startDate: unknown): 'startDate' | 'endDate' {
  if (issue === EXPORT_MESSAGES.endInFuture) return 'endDate';
  return issue === EXPORT_MESSAGES.datesRequired && isIsoDate(startDate) ? 'endDate' : 'startDate';
}

// ---------------------------------------------------------------- the request

const FILE_NAME_RE = /^[A-Za-z0-9 ._-]+$/;

/** Windows device names (COM0 and LPT0 too: Windows reserves them as well). */
const RESERVED_DEVICE_RE = /^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])$/i;

/**
 * A name no file may have on Windows or anywhere: only dots (`.`, `..`), or a
 * device name (CON, PRN, AUX, NUL, COM0–9, LPT0–9, any case), alone, with an
 * extension (`nul.txt`, `Com1.tar.gz`) or with trailing dots or spaces
 * (`CON.`, `aux .txt`): Windows takes the part before the first dot, without
 * trailing spaces, as the name.
 */
export function isReservedFileName(name: string): boolean {
  const trimmed = name.trim();
  if (trimmed !== '' && /^[. ]+$/.test(trimmed)) return true;
  const base = trimmed.split('.')[0]!.replace(/[ .]+$/, '');
  return RESERVED_DEVICE_RE.test(base);
}

const requiredId = (message: string) =>
  z.number({ message }).int(message).positive(message).max(2_147_483_647, message);

const dateField = z.string({ message: EXPORT_MESSAGES.datesRequired });

/** The request's fields; each with the §5 message of its own rule. */
const batchExportFields = z.object({
  trialId: requiredId(EXPORT_MESSAGES.trialRequired),
  deviceId: requiredId(EXPORT_MESSAGES.deviceRequired),
  participantIds: z
    .array(requiredId(EXPORT_MESSAGES.participantsRequired), {
      message: EXPORT_MESSAGES.participantsRequired,
    })
    .min(1, EXPORT_MESSAGES.participantsRequired)
    .max(EXPORT_LIMITS.participantsMax),
  startDate: dateField,
  endDate: dateField,
  metrics: z
    .array(z.string().trim().min(1, EXPORT_MESSAGES.metricsRequired).max(100), {
      message: EXPORT_MESSAGES.metricsRequired,
    })
    .min(1, EXPORT_MESSAGES.metricsRequired)
    .max(EXPORT_LIMITS.metricsMax),
  fileName: z
    .string({ message: EXPORT_MESSAGES.fileNameRequired })
    .trim()
    .min(1, { message: EXPORT_MESSAGES.fileNameRequired, abort: true })
    .max(EXPORT_LIMITS.fileNameMax, EXPORT_MESSAGES.fileNameInvalid)
    .regex(FILE_NAME_RE, EXPORT_MESSAGES.fileNameInvalid)
    .refine((v) => !isReservedFileName(v), EXPORT_MESSAGES.fileNameReserved),
  exportMode: exportModeSchema,
  format: exportFormatSchema.default('csv'),
});

function refineDates(today?: () => string) {
  return (v: { startDate: string; endDate: string }, ctx: z.RefinementCtx) => {
    const issue = exportDateIssue(v.startDate, v.endDate, today?.());
    if (!issue) return;
    // The missing one (or the start; the end when in the future) carries the message, under its field.
    ctx.addIssue({ code: 'custom', message: issue, path: [exportDateIssueField(issue, v.startDate)] });
  };
}

/**
 * POST /api/dataExport/batchDataExport body. Every rule but "start not older
 * than one year" and "end not in the future" (the server adds them with its
 * clock; the web uses `batchExportFormSchema`).
 */
export const batchExportBodySchema = batchExportFields.superRefine(refineDates());
export type BatchExportBody = z.infer<typeof batchExportBodySchema>;

/** The same rules plus the age of the start against `today()` (YYYY-MM-DD): the web form's resolver. */
export const batchExportFormSchema = (today: () => string) =>
  batchExportFields.superRefine(refineDates(today));

/** `{ success, message, error }` (§7), plus the new job's id. */
export const batchExportResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  error: z.string().nullable(),
  jobId: z.string().optional(),
});
export type BatchExportResult = z.infer<typeof batchExportResultSchema>;

// ---------------------------------------------------------------- the lists

/** GET /api/dataExport/trials: Export trial (§3), the trials the caller sees. */
export const exportTrialSchema = z.object({
  trialId: z.number(),
  trialName: z.string(),
  trialNumber: z.string(),
});
export type ExportTrial = z.infer<typeof exportTrialSchema>;

/** GET /api/dataExport/devices: Export device (§3), the team's active supported devices. */
export const exportDeviceSchema = z.object({
  id: z.number(),
  friendlyName: z.string(),
  deviceType: z.string(),
  manufacturer: z.string(),
});
export type ExportDevice = z.infer<typeof exportDeviceSchema>;

/**
 * GET /api/dataExport/trials/{trialId}/participants/{deviceId}: the trial's
 * participants with an authorized (or once authorized) link of the device's
 * brand. `email` is null when the team hides it.
 */
export const exportParticipantSchema = z.object({
  participantId: z.number(),
  participantCode: z.string().nullable(),
  email: z.string().nullable(),
});
export type ExportParticipant = z.infer<typeof exportParticipantSchema>;

/** GET /api/dataExport/metrics/{deviceId}: Export metric (§3), those of the device the team stores. */
export const exportMetricSchema = z.object({
  metric_key: z.string(),
  metric_name: z.string(),
  category: z.string().nullable(),
  units: z.string().nullable(),
});
export type ExportMetric = z.infer<typeof exportMetricSchema>;

export const exportTrialParamsSchema = z.object({ trialId: idSchema, deviceId: idSchema });
export const exportDeviceParamsSchema = z.object({ deviceId: idSchema });
