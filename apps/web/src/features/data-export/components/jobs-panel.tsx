/*
 * The jobs panel (admin §2, §4): the latest 10 export jobs of the team,
 * polled every 10 s while the page is open. Each row: id, status (with a
 * progress bar of rows written while processing), the job's parameters in
 * words, created_at on the browser's clock, the ZIP's size, the error.
 * Completed → Download (a link opened in a new tab); pending/processing →
 * Cancel after a confirmation that the job stops; completed/failed/cancelled/
 * expired → Delete after a confirmation that the file is permanently removed.
 * An expired job says so. Participants are named by code and metrics by name
 * (the server's labels of the list), as the form names them.
 */
import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import {
  canCancelExport,
  canDeleteExport,
  canDownloadExport,
  EXPORT_LIMITS,
  EXPORT_MESSAGES,
  type ExportDevice,
  type ExportJob,
  type ExportParticipant,
  type ExportTrial,
  exportZipName,
} from '@trialwear/contract';
import { type ReactNode, useId, useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { DataTable } from '../../../components/data-table/data-table';
import {
  cancelExportJob,
  deleteExportJob,
  exportDownloadUrl,
  exportKeys,
  useExportJobs,
} from '../api/data-export-api';
import {
  exportFailureText,
  JOB_STATUS_COLORS,
  JOB_STATUS_LABELS,
  jobParamLines,
  jobProgress,
  jobSizeText,
  localDateTime,
} from '../export-format';

function StatusCell({ job }: { job: ExportJob }) {
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

function ParamsCell({
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

function JobId({ id }: { id: string }) {
  return (
    <Text size="xs" ff="monospace" title={id}>
      {id.slice(0, 8)}
    </Text>
  );
}

function JobError({ job }: { job: ExportJob }) {
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

function JobActions({
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
function JobCard({ job, params, actions }: { job: ExportJob; params: ReactNode; actions: ReactNode }) {
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

export function JobsPanel({ trials, devices }: { trials: ExportTrial[]; devices: ExportDevice[] }) {
  const qc = useQueryClient();
  const jobs = useExportJobs();
  // Every participant list the page has loaded (read at each poll): codes for the jobs' participant ids.
  const participants = qc
    .getQueriesData<ExportParticipant[]>({ queryKey: [...exportKeys.all, 'participants'] })
    .flatMap(([, list]) => list ?? []);
  const [deleting, setDeleting] = useState<ExportJob | null>(null);
  const [cancelling, setCancelling] = useState<ExportJob | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const narrow = useMediaQuery('(max-width: 48em)');

  // Ten rows at most: the lookups and columns are simply rebuilt on each render (each poll).
  const codes = new Map(participants.map((p) => [p.participantId, p.participantCode ?? undefined]));
  const lookups = {
    codeOf: (id: number) => codes.get(id),
    trialOf: (id: number) => trials.find((t) => t.trialId === id),
    deviceOf: (id: number) => devices.find((d) => d.id === id),
  };

  const act = async (job: ExportJob, call: (id: string) => Promise<{ message: string }>) => {
    setBusy(job.id);
    try {
      const res = await call(job.id);
      notifications.show({ color: 'teal', message: res.message });
    } catch (err) {
      notifications.show({ color: 'red', message: exportFailureText(err) });
    } finally {
      setBusy(null);
      await qc.invalidateQueries({ queryKey: exportKeys.jobs });
    }
  };

  const actions = (job: ExportJob) => (
    <JobActions
      job={job}
      busy={busy === job.id}
      onCancel={() => setCancelling(job)}
      onDelete={() => setDeleting(job)}
    />
  );

  const columns: ColumnDef<ExportJob, unknown>[] = [
    {
      id: 'id',
      header: 'ID',
      accessorKey: 'id',
      cell: ({ row }) => <JobId id={row.original.id} />,
    },
    {
      id: 'status',
      header: 'Status',
      accessorKey: 'status',
      cell: ({ row }) => <StatusCell job={row.original} />,
    },
    {
      id: 'params',
      header: 'Parameters',
      enableSorting: false,
      cell: ({ row }) => <ParamsCell job={row.original} {...lookups} />,
    },
    {
      id: 'created_at',
      header: 'Created',
      accessorKey: 'created_at',
      cell: ({ row }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {localDateTime(row.original.created_at)}
        </Text>
      ),
    },
    {
      id: 'file_size',
      header: 'Size',
      accessorFn: (j) => j.file_size ?? -1,
      cell: ({ row }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {jobSizeText(row.original.file_size)}
        </Text>
      ),
    },
    {
      id: 'error_message',
      header: 'Error',
      enableSorting: false,
      cell: ({ row }) => <JobError job={row.original} />,
    },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      cell: ({ row }) => actions(row.original),
    },
  ];

  const titleId = useId();
  const total = jobs.data?.total ?? 0;
  const list = jobs.data?.data ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={3} id={titleId}>
            Export jobs
          </Title>
          <Text size="sm" c="dimmed">
            The latest {EXPORT_LIMITS.jobsListLimit} jobs
            {total > list.length ? ` of ${total}` : ''}, refreshed every {EXPORT_LIMITS.pollMs / 1000}{' '}
            seconds. Export files are kept {EXPORT_LIMITS.filesKeptDays} days.
          </Text>
        </div>
        {jobs.dataUpdatedAt > 0 && (
          <Text size="xs" c="dimmed">
            Updated {new Date(jobs.dataUpdatedAt).toLocaleTimeString()}
          </Text>
        )}
      </Group>
      {jobs.isError && (
        <Alert color="red" role="alert" title="Export jobs">
          {exportFailureText(jobs.error)}
        </Alert>
      )}
      {narrow ? (
        list.length === 0 ? (
          <Text c="dimmed" ta="center" py="md">
            {jobs.isLoading ? 'Loading…' : 'No export jobs yet'}
          </Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Export jobs">
            {list.map((job) => (
              <JobCard
                key={job.id}
                job={job}
                params={<ParamsCell job={job} {...lookups} />}
                actions={actions(job)}
              />
            ))}
          </Stack>
        )
      ) : (
        <DataTable
          label="Export jobs"
          data={list}
          columns={columns}
          getRowId={(j) => j.id}
          stateKey="dataExport.jobs"
          emptyText={jobs.isLoading ? 'Loading…' : 'No export jobs yet'}
          globalFilter={false}
          pageSize={EXPORT_LIMITS.jobsListLimit}
        />
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={EXPORT_MESSAGES.deleteTitle}
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const job = deleting;
          setDeleting(null);
          if (job) void act(job, deleteExportJob);
        }}
      >
        {deleting ? `${exportZipName(deleting.job_params.fileName)}: ` : ''}
        {EXPORT_MESSAGES.deleteConfirm}
      </ConfirmModal>
      {/* Cancelling stops a job for good, as Delete removes a file: both ask first. */}
      <ConfirmModal
        opened={cancelling !== null}
        title={EXPORT_MESSAGES.cancelTitle}
        confirmLabel="Cancel export"
        cancelLabel="Keep it running"
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          const job = cancelling;
          setCancelling(null);
          if (job) void act(job, cancelExportJob);
        }}
      >
        {cancelling ? `${exportZipName(cancelling.job_params.fileName)}: ` : ''}
        {EXPORT_MESSAGES.cancelConfirm}
      </ConfirmModal>
    </Stack>
  );
}
