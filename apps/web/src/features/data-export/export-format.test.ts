import { EXPORT_JOB_STATUSES, EXPORT_MESSAGES, type ExportJobParams } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { ApiRequestError, NetworkError } from '../../lib/api-client';
import {
  dateFieldError,
  daysBefore,
  exportFailureText,
  JOB_STATUS_LABELS,
  jobParamLines,
  jobProgress,
  jobSizeText,
  localDateTime,
  participantLabel,
  participantsText,
} from './export-format';

const apiError = (status: number, message = 'x', displayToUser = false) =>
  new ApiRequestError(status, {
    message,
    displayToUser,
    reason: '',
    location: '',
    errors: [],
    user: null,
  } as never);

describe('status labels', () => {
  it('names every job state of the contract', () => {
    for (const s of EXPORT_JOB_STATUSES) expect(JOB_STATUS_LABELS[s]).toMatch(/^[A-Z][a-z]+$/);
    expect(JOB_STATUS_LABELS.expired).toBe('Expired');
  });
});

describe('jobSizeText', () => {
  it('B, KB and MB; a dash before there is a file', () => {
    expect(jobSizeText(null)).toBe('—');
    expect(jobSizeText(0)).toBe('0 B');
    expect(jobSizeText(1023)).toBe('1023 B');
    expect(jobSizeText(1024)).toBe('1.0 KB');
    expect(jobSizeText(1536)).toBe('1.5 KB');
    expect(jobSizeText(1024 * 1024 - 1)).toBe('1024.0 KB');
    expect(jobSizeText(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});

describe('localDateTime', () => {
  it('writes the instant on the given clock, 24-hour', () => {
    expect(localDateTime('2026-11-24T09:05:00Z', 'UTC')).toBe('2026-11-24 09:05');
    expect(localDateTime('2026-11-24T23:30:00Z', 'Europe/Berlin')).toBe('2026-11-25 00:30');
    expect(localDateTime('2026-07-01T12:00:00Z', 'America/New_York')).toBe('2026-07-01 08:00');
  });
  it('a dash for no or a bad instant', () => {
    expect(localDateTime(null)).toBe('—');
    expect(localDateTime('not a date')).toBe('—');
  });
});

describe('participants', () => {
  it('labels by code, with the email only when the team shows it', () => {
    expect(participantLabel({ participantId: 3, participantCode: 'EXP-001', email: null })).toBe('EXP-001');
    expect(participantLabel({ participantId: 3, participantCode: 'EXP-001', email: 'a@b.c' })).toBe(
      'EXP-001 (a@b.c)',
    );
    expect(participantLabel({ participantId: 3, participantCode: null, email: null })).toBe('Participant 3');
  });
  it('summarises a job by count and codes, ids for unknown ones, at most five', () => {
    const codes: Record<number, string> = { 1: 'A-1', 2: 'A-2' };
    expect(participantsText([1], (id) => codes[id])).toBe('1 participant: A-1');
    expect(participantsText([1, 2, 9], (id) => codes[id])).toBe('3 participants: A-1, A-2, #9');
    expect(participantsText([1, 2, 3, 4, 5, 6, 7], (id) => codes[id])).toBe(
      '7 participants: A-1, A-2, #3, #4, #5, +2 more',
    );
  });
});

describe('jobParamLines', () => {
  const params: ExportJobParams = {
    fileName: 'sleep study',
    startDate: '2026-10-01',
    endDate: '2026-10-31',
    participantIds: [4, 5],
    metrics: ['steps', 'calories'],
    trialId: 1,
    deviceId: 2,
    exportMode: 'separate-tabs',
    format: 'csv',
    deidentify: false,
  };
  it('reads the parameters as sentences', () => {
    expect(jobParamLines(params, (id) => (id === 4 ? 'EXP-001' : undefined))).toEqual({
      file: 'sleep study.zip',
      period: '2026-10-01 to 2026-10-31',
      participants: '2 participants: EXP-001, #5',
      metrics: '2 metrics: steps, calories',
      mode: 'one CSV per metric',
    });
    const oneDay = jobParamLines({
      ...params,
      endDate: '2026-10-01',
      metrics: ['steps'],
      exportMode: 'single-tab',
    });
    expect(oneDay.period).toBe('2026-10-01');
    expect(oneDay.metrics).toBe('1 metric: steps');
    expect(oneDay.mode).toBe('single CSV');
  });
  it('names the Parquet format, one file per metric whatever the mode', () => {
    expect(jobParamLines({ ...params, format: 'parquet' }).mode).toBe('Parquet, one file per metric');
    expect(jobParamLines({ ...params, format: 'parquet', exportMode: 'single-tab' }).mode).toBe(
      'Parquet, one file per metric',
    );
  });
  it('names the standard formats and says when dates are shifted', () => {
    expect(jobParamLines({ ...params, format: 'fhir' }).mode).toBe(
      'FHIR R4, one NDJSON file per resource type',
    );
    expect(jobParamLines({ ...params, format: 'omh', deidentify: true }).mode).toBe(
      'Open mHealth, one NDJSON file per schema, dates shifted',
    );
    expect(jobParamLines({ ...params, deidentify: true }).mode).toBe('one CSV per metric, dates shifted');
  });
});

describe('jobProgress', () => {
  it('percent of rows written while processing', () => {
    expect(jobProgress({ status: 'processing', progress: { rowsWritten: 2500, rowsTotal: 10000 } })).toEqual({
      percent: 25,
      text: '25% (2,500 of 10,000 rows)',
    });
    expect(jobProgress({ status: 'processing', progress: { rowsWritten: 2, rowsTotal: 3 } })?.percent).toBe(
      66,
    );
  });
  it('no percent before the total is known, or while waiting', () => {
    expect(jobProgress({ status: 'processing', progress: null })).toEqual({
      percent: null,
      text: 'Preparing the data',
    });
    expect(
      jobProgress({ status: 'processing', progress: { rowsWritten: 0, rowsTotal: 0 } })?.percent,
    ).toBeNull();
    expect(jobProgress({ status: 'pending', progress: null })?.text).toBe('Waiting in the queue');
    // Waiting for the brand's hourly limit (issue #21): the resume time on the viewer's clock.
    expect(
      jobProgress(
        {
          status: 'pending',
          progress: null,
          waiting: { brand: 'Fitbit', resumesAt: '2026-11-26T19:00:00.000Z' },
        },
        'UTC',
      )?.text,
    ).toBe("waiting for Fitbit's hourly limit (resumes 19:00)");
  });
  it('nothing for finished jobs', () => {
    for (const status of ['completed', 'failed', 'cancelled', 'expired'] as const)
      expect(jobProgress({ status, progress: { rowsWritten: 5, rowsTotal: 5 } })).toBeNull();
  });
});

describe('exportFailureText (admin §8)', () => {
  it('no answer: unable to connect', () => {
    expect(exportFailureText(new NetworkError('Failed to fetch'))).toBe(EXPORT_MESSAGES.unableToConnect);
  });
  it("5xx: 'Server error (status)'", () => {
    expect(exportFailureText(apiError(500, 'boom', true))).toBe('Server error (500)');
    expect(exportFailureText(apiError(503))).toBe('Server error (503)');
  });
  it("404: 'Export endpoint not found'", () => {
    expect(exportFailureText(apiError(404, 'Not Found'))).toBe('Export endpoint not found');
  });
  it('401 and 403: the authentication text', () => {
    expect(exportFailureText(apiError(401))).toBe('Authentication error. Please log in again.');
    expect(exportFailureText(apiError(403, 'Forbidden', true))).toBe(
      'Authentication error. Please log in again.',
    );
  });
  it("400: the server's validation message", () => {
    expect(exportFailureText(apiError(400, EXPORT_MESSAGES.rangeTooLong, true))).toBe(
      'Date range cannot exceed 1 year.',
    );
    expect(exportFailureText(apiError(400, EXPORT_MESSAGES.participantsNotEligible))).toBe(
      EXPORT_MESSAGES.participantsNotEligible,
    );
  });
});

describe('dateFieldError (admin §5)', () => {
  const today = '2026-11-24';
  it('both dates required: under the missing one', () => {
    expect(dateFieldError('', '', today)).toEqual({
      field: 'startDate',
      message: EXPORT_MESSAGES.datesRequired,
    });
    expect(dateFieldError('2026-11-01', '', today)).toEqual({
      field: 'endDate',
      message: 'Please select both start and end dates.',
    });
  });
  it('start on or before end', () => {
    expect(dateFieldError('2026-11-02', '2026-11-01', today)).toEqual({
      field: 'startDate',
      message: 'Start date must be on or before end date.',
    });
    expect(dateFieldError('2026-11-01', '2026-11-01', today)).toBeNull();
  });
  it('at most one year, and the start no older than one year', () => {
    expect(dateFieldError('2025-11-24', '2026-11-24', today)).toBeNull();
    expect(dateFieldError('2025-11-23', '2026-11-24', today)?.message).toBe(
      'Date range cannot exceed 1 year.',
    );
    expect(dateFieldError('2025-11-23', '2025-12-01', today)?.message).toBe(
      'Date range cannot exceed 1 year.',
    );
  });
  it('daysBefore counts calendar days', () => {
    expect(daysBefore('2026-11-24', 365)).toBe('2025-11-24');
    expect(daysBefore('2024-03-01', 1)).toBe('2024-02-29');
  });
});
