/*
 * The jobs panel's pieces (jobs-panel.tsx): a job's status with its progress,
 * its parameters in words, its id, its error, its actions, and the card a
 * narrow screen shows instead of the table's row.
 */
import { Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import {
  canCancelExport,
  canDeleteExport,
  canDownloadExport,
  EXPORT_MESSAGES,
  type ExportDevice,
  type ExportJob,
  type ExportTrial,
  exportZipName,
} from '@trialwear/contract';
import type { ReactNode } from 'react';
import { exportDownloadUrl } from '../api/data-export-api';
import {
  JOB_STATUS_COLORS,
  JOB_STATUS_LABELS,
  jobParamLines,
  jobProgress,
  jobSizeText,
  localDateTime,
} from '../export-format';

export function StatusCell({ job }: { job: ExportJob }) {
  const progress = jobProgress(job);
  const label = JOB_STATUS_LABELS[job.status];
  return (
    <Stack gap={4} miw={150} data-job-status={job.status}>
      <Badge color={JOB_STATUS_COLORS[job.status]} variant="light">
        {label}
      </Badge>
      {progress && job.status === 'processing' && (
        <Progress.Root size="md">
          {progress.percent === null ? (
            // Rows not counted yet (the job is still making sure the data is stored): no number to announce.
            <Progress.Section
              value={100}
              striped
              animated
              color="blue.3"
              withAria={false}
              role="progressbar"
              aria-label={`Progress of ${job.job_params.fileName}`}
              aria-valuetext={progress.text}
            />
          ) : (
            <Progress.Section
              value={progress.percent}
              aria-label={`Progress of ${job.job_params.fileName}`}
            />
          )}
        </Progress.Root>
      )}
      {progress && (
        <Text size="xs" c="dimmed">
          {progress.text}
        </Text>
      )}
      {job.status === 'completed' && job.expires_at && (
        <Text size="xs" c="dimmed">
          Kept until {localDateTime(job.expires_at)}
        </Text>
      )}
      {job.status === 'expired' && !job.error_message && (
        <Text size="xs" c="dimmed">
          {EXPORT_MESSAGES.expiredNote}
        </Text>
      )}
    </Stack>
  );
}

export function ParamsCell({
  job,
  codeOf,
  trialOf,
  deviceOf,
}: {
  job: ExportJob;
  codeOf: (id: number) => string | undefined;
  trialOf: (id: number) => ExportTrial | undefined;
  deviceOf: (id: number) => ExportDevice | undefined;
}) {
  const p = job.job_params;
  // The server's labels first (codes and names as the form shows them), then what the page has loaded.
  const lines = jobParamLines(
    p,
    (id) => job.labels?.participants[String(id)] ?? codeOf(id),
    (key) => job.labels?.metrics[key],
  );
  const trial = trialOf(p.trialId);
  const device = deviceOf(p.deviceId);
  return (
    <Stack gap={2} miw={220} maw={420}>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {lines.file}
      </Text>
      <Text size="xs">{lines.period}</Text>
      {(trial || device) && (
        <Text size="xs">
          {[trial && `#${trial.trialNumber} - ${trial.trialName}`, device?.friendlyName]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      )}
      <Text size="xs">{lines.participants}</Text>
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        {lines.metrics} ({lines.mode})
      </Text>
    </Stack>
  );
}

export function JobId({ id }: { id: string }) {
  return (
    <Text size="xs" ff="monospace" title={id}>
      {id.slice(0, 8)}
    </Text>
  );
}

export function JobError({ job }: { job: ExportJob }) {
  if (!job.error_message) return null;
  return (
    <Text
      size="sm"
      c={job.status === 'failed' ? 'red.9' : 'dimmed'}
      maw={260}
      style={{ overflowWrap: 'anywhere' }}
    >
      {job.error_message}
    </Text>
  );
}

export function JobActions({
  job,
  busy,
  onCancel,
  onDelete,
}: {
  job: ExportJob;
  busy: boolean;
  onCancel: () => void;
  onDelete: () => void;
}) {
  const zip = exportZipName(job.job_params.fileName);
  return (
    <Group gap={6} wrap="nowrap">
      {canDownloadExport(job.status) && (
        <Button
          component="a"
          href={exportDownloadUrl(job.id)}
          target="_blank"
          rel="noopener noreferrer"
          size="compact-sm"
          aria-label={`Download ${zip}`}
        >
          Download
        </Button>
      )}
      {canCancelExport(job.status) && (
        <Button
          size="compact-sm"
          variant="light"
          color="orange"
          loading={busy}
          aria-label={`Cancel ${zip}`}
          onClick={onCancel}
        >
          Cancel
        </Button>
      )}
      {canDeleteExport(job.status) && (
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          loading={busy}
          aria-label={`Delete ${zip}`}
          onClick={onDelete}
        >
          Delete
        </Button>
      )}
    </Group>
  );
}

/** A narrow screen: one card per job instead of a seven-column table. */
export function JobCard({ job, params, actions }: { job: ExportJob; params: ReactNode; actions: ReactNode }) {
  return (
    <Paper withBorder p="sm" component="li" aria-label={`Export ${exportZipName(job.job_params.fileName)}`}>
      <Stack gap={6}>
        <StatusCell job={job} />
        {params}
        <Text size="xs" c="dimmed">
          Created {localDateTime(job.created_at)} · {jobSizeText(job.file_size)} · ID{' '}
          <Text span ff="monospace" size="xs" title={job.id}>
            {job.id.slice(0, 8)}
          </Text>
        </Text>
        <JobError job={job} />
        {actions}
      </Stack>
    </Paper>
  );
}
