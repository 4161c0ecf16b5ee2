/*
 * Batch data export, the jobs (admin §2–§4, §7): their states and what each
 * allows, progress, the jobs panel's list and the actions on one job
 * (download, delete, our cancel). The request and its rules: data-export.ts.
 */
import { z } from 'zod';
import { EXPORT } from './constants.js';
import { EXPORT_MESSAGES, exportFormatSchema, exportModeSchema } from './data-export.js';

export const EXPORT_JOB_STATUSES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'cancelled',
  'expired',
] as const;
export const exportJobStatusSchema = z.enum(EXPORT_JOB_STATUSES);
export type ExportJobStatus = z.infer<typeof exportJobStatusSchema>;

/** What each state allows (admin §4, plus cancelled and expired, which can be deleted too). */
export const EXPORT_JOB_ACTIONS = {
  cancellable: ['pending', 'processing'],
  deletable: ['completed', 'failed', 'cancelled', 'expired'],
  downloadable: ['completed'],
} as const satisfies Record<string, readonly ExportJobStatus[]>;

export const canCancelExport = (s: ExportJobStatus) =>
  (EXPORT_JOB_ACTIONS.cancellable as readonly string[]).includes(s);
export const canDeleteExport = (s: ExportJobStatus) =>
  (EXPORT_JOB_ACTIONS.deletable as readonly string[]).includes(s);
export const canDownloadExport = (s: ExportJobStatus) =>
  (EXPORT_JOB_ACTIONS.downloadable as readonly string[]).includes(s);

/** Percent of rows written (0–100), or null when the total is not known yet. */
export function exportProgressPercent(p: { rowsWritten: number; rowsTotal: number } | null): number | null {
  if (!p || p.rowsTotal <= 0) return null;
  return Math.min(100, Math.floor((p.rowsWritten / p.rowsTotal) * 100));
}

/** job_params as stored and shown (§2 fileName, startDate, endDate, participantIds, metrics, and the rest of the request). */
export const exportJobParamsSchema = z.object({
  fileName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  participantIds: z.array(z.number()),
  metrics: z.array(z.string()),
  trialId: z.number(),
  deviceId: z.number(),
  exportMode: exportModeSchema,
  /** Jobs requested before the format existed are CSV. */
  format: exportFormatSchema.default('csv'),
  /** Dates shifted per participant (decision 049); jobs before the option were not. */
  deidentify: z.boolean().default(false),
});
export type ExportJobParams = z.infer<typeof exportJobParamsSchema>;

export const exportProgressSchema = z.object({ rowsWritten: z.number(), rowsTotal: z.number() });
export type ExportProgress = z.infer<typeof exportProgressSchema>;

/** Export job (§3) as the jobs panel lists it, plus progress and expiry. */
export const exportJobSchema = z.object({
  id: z.string(),
  status: exportJobStatusSchema,
  job_params: exportJobParamsSchema,
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** Bytes of the ZIP (completed jobs). */
  file_size: z.number().nullable(),
  error_message: z.string().nullable(),
  /** Rows written of the total, while processing and once done; null before. */
  progress: exportProgressSchema.nullable(),
  /** When the file is deleted (completed jobs). */
  expires_at: z.string().nullable(),
  /** A pending job waiting for a brand's hourly limit (issue #21): which brand, and when it resumes. */
  waiting: z.object({ brand: z.string(), resumesAt: z.string() }).nullable().optional(),
  /**
   * In the jobs list: the codes of the job's participants (by id; only those
   * of trials the user sees, null for one without a code) and the names of its
   * metrics (by key), so the panel names them as the form does.
   */
  labels: z
    .object({
      participants: z.record(z.string(), z.string().nullable()),
      metrics: z.record(z.string(), z.string()),
    })
    .optional(),
});
export type ExportJob = z.infer<typeof exportJobSchema>;

export const exportJobsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(EXPORT.jobsListLimit).default(EXPORT.jobsListLimit),
});

/** GET /api/dataExport/jobs?limit=10: `{ success, data, total }` (§7); total counts every job of the team. */
export const exportJobsResultSchema = z.object({
  success: z.boolean(),
  data: z.array(exportJobSchema),
  total: z.number(),
});
export type ExportJobsResult = z.infer<typeof exportJobsResultSchema>;

export const exportJobIdParamsSchema = z.object({
  id: z.string().uuid(EXPORT_MESSAGES.jobNotFound),
});

/** DELETE /api/dataExport/jobs/{id} and POST /api/dataExport/jobs/{id}/cancel. */
export const exportJobActionResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  job: exportJobSchema.optional(),
});
export type ExportJobActionResult = z.infer<typeof exportJobActionResultSchema>;

/** The download's name: `<fileName>.zip`. */
export const exportZipName = (fileName: string) => `${fileName}.zip`;
