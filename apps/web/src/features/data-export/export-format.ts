/*
 * Pure helpers of the batch data export page: status labels, sizes, local
 * times, the readable job parameters, the progress text, the §8 failure
 * text of a call, and the date rule the contract's form schema skips while
 * another field is wrong (so that one submit shows every §5 message).
 * Every user-facing message comes from the contract.
 */
import {
  clockTime,
  type ExportJob,
  type ExportJobParams,
  type ExportJobStatus,
  type ExportParticipant,
  exportCallError,
  exportDateIssue,
  exportDateIssueField,
  exportProgressPercent,
  formatFileSize,
  PROVIDER_LIMIT_MESSAGES,
} from '@trialwear/contract';
import { runtimeZone, wallClock } from '@trialwear/zone';
import { ApiRequestError, NetworkError } from '../../lib/api-client';

export const JOB_STATUS_LABELS: Record<ExportJobStatus, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** Badge colours; the label is always written beside them, so colour is never the only signal. */
export const JOB_STATUS_COLORS: Record<ExportJobStatus, string> = {
  pending: 'gray',
  processing: 'blue',
  completed: 'teal',
  failed: 'red',
  cancelled: 'orange',
  expired: 'gray',
};

/** The ZIP's size in B, KB or MB (admin §2), or a dash before there is a file. */
export function jobSizeText(bytes: number | null): string {
  return bytes === null ? '—' : formatFileSize(bytes);
}

/** An instant as 'YYYY-MM-DD HH:mm' on the browser's clock (or in `timeZone`). */
export function localDateTime(iso: string | null, timeZone?: string): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  return wallClock(timeZone ?? runtimeZone(), t)
    .slice(0, 16)
    .replace('T', ' ');
}

/** A participant as the lists show it: the code, with the email when the team shows it. */
export function participantLabel(p: ExportParticipant): string {
  const code = p.participantCode ?? `Participant ${p.participantId}`;
  return p.email ? `${code} (${p.email})` : code;
}

/**
 * 'N participants: A, B, C' with the codes known to the page (those of the
 * chosen trial and device) and ids for the rest; at most `max` listed.
 */
export function participantsText(
  ids: readonly number[],
  codeOf: (id: number) => string | undefined,
  max = 5,
) {
  const n = ids.length;
  const head = `${n} participant${n === 1 ? '' : 's'}`;
  if (n === 0) return head;
  const names = ids.slice(0, max).map((id) => codeOf(id) ?? `#${id}`);
  return `${head}: ${names.join(', ')}${n > max ? `, +${n - max} more` : ''}`;
}

/** The job's parameters as lines a person reads (admin §2: fileName, dates, participants, metrics). */
export function jobParamLines(
  p: ExportJobParams,
  codeOf: (id: number) => string | undefined = () => undefined,
  metricName: (key: string) => string | undefined = () => undefined,
): { file: string; period: string; participants: string; metrics: string; mode: string } {
  // Parquet is one file per metric whatever the mode (decision 042).
  const mode =
    p.format === 'parquet'
      ? 'Parquet, one file per metric'
      : p.format === 'fhir'
        ? 'FHIR R4, one NDJSON file per resource type'
        : p.format === 'omh'
          ? 'Open mHealth, one NDJSON file per schema'
          : p.exportMode === 'single-tab'
            ? 'single CSV'
            : 'one CSV per metric';
  return {
    file: `${p.fileName}.zip`,
    period: p.startDate === p.endDate ? p.startDate : `${p.startDate} to ${p.endDate}`,
    participants: participantsText(p.participantIds, codeOf),
    metrics: `${p.metrics.length} metric${p.metrics.length === 1 ? '' : 's'}: ${p.metrics
      .map((k) => metricName(k) ?? k)
      .join(', ')}`,
    mode,
  };
}

/** What the status cell says under the badge: progress of a running job, the expiry of a file. */
export function jobProgress(
  job: Pick<ExportJob, 'status' | 'progress'> & Partial<Pick<ExportJob, 'waiting'>>,
  timeZone?: string,
): {
  percent: number | null;
  text: string;
} | null {
  // Waiting for a brand's hourly limit (issue #21): say so, with the time on the viewer's clock.
  if (job.status === 'pending' && job.waiting)
    return {
      percent: null,
      text: PROVIDER_LIMIT_MESSAGES.export(job.waiting.brand, clockTime(job.waiting.resumesAt, timeZone)),
    };
  if (job.status === 'pending') return { percent: null, text: 'Waiting in the queue' };
  if (job.status !== 'processing') return null;
  const percent = exportProgressPercent(job.progress);
  if (percent === null || !job.progress) return { percent: null, text: 'Preparing the data' };
  const { rowsWritten, rowsTotal } = job.progress;
  return {
    percent,
    text: `${percent}% (${rowsWritten.toLocaleString('en-US')} of ${rowsTotal.toLocaleString('en-US')} rows)`,
  };
}

/**
 * The §8 text of a failed export call: unable to connect, 'Server error
 * (status)' for 5xx, 'Export endpoint not found' for 404, the
 * authentication text for 401/403, and the server's own (validation)
 * message for a 400 or any other refusal it means people to read.
 */
export function exportFailureText(err: unknown): string {
  if (err instanceof NetworkError) return exportCallError(0);
  if (err instanceof ApiRequestError) {
    const { status, body } = err;
    if (status === 401 || status === 403 || status === 404 || status >= 500) return exportCallError(status);
    if (body?.message && (status === 400 || body.displayToUser)) return body.message;
    return exportCallError(status);
  }
  return exportCallError(0);
}

type DateField = 'startDate' | 'endDate';

/**
 * The §5 date message (and ours, the end not in the future) and the field
 * that carries it (the missing one or the end in the future, else the
 * start), as the contract places it. The contract's form schema checks
 * dates only once every other field is valid; the form asks this too so an
 * empty submit lists the dates' message with the others.
 */
export function dateFieldError(
  startDate: string,
  endDate: string,
  today: string,
): { field: DateField; message: string } | null {
  const message = exportDateIssue(startDate, endDate, today);
  if (!message) return null;
  return { field: exportDateIssueField(message, startDate), message };
}

/** YYYY-MM-DD of the day `days` before the ISO date `iso`. */
export function daysBefore(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}
