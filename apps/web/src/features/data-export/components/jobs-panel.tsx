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
import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import {
  EXPORT_LIMITS,
  EXPORT_MESSAGES,
  type ExportDevice,
  type ExportJob,
  type ExportParticipant,
  type ExportTrial,
  exportZipName,
} from '@trialwear/contract';
import { useId, useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { DataTable } from '../../../components/data-table/data-table';
import { cancelExportJob, deleteExportJob, exportKeys, useExportJobs } from '../api/data-export-api';
import { exportFailureText, jobSizeText, localDateTime } from '../export-format';
import { JobActions, JobCard, JobError, JobId, ParamsCell, StatusCell } from './job-cells';

type ConfirmedAction = 'delete' | 'cancel';

/** What each confirmation says (the modal's title, buttons and text). */
const CONFIRMATIONS: Record<
  ConfirmedAction,
  { title: string; confirmLabel: string; cancelLabel?: string; text: string }
> = {
  delete: { title: EXPORT_MESSAGES.deleteTitle, confirmLabel: 'Delete', text: EXPORT_MESSAGES.deleteConfirm },
  cancel: {
    title: EXPORT_MESSAGES.cancelTitle,
    confirmLabel: 'Cancel export',
    cancelLabel: 'Keep it running',
    text: EXPORT_MESSAGES.cancelConfirm,
  },
};

export function JobsPanel({ trials, devices }: { trials: ExportTrial[]; devices: ExportDevice[] }) {
  const qc = useQueryClient();
  const jobs = useExportJobs();
  // Every participant list the page has loaded (read at each poll): codes for the jobs' participant ids.
  const participants = qc
    .getQueriesData<ExportParticipant[]>({ queryKey: [...exportKeys.all, 'participants'] })
    .flatMap(([, list]) => list ?? []);
  // The job whose Delete or Cancel waits for its confirmation.
  const [asking, setAsking] = useState<{ job: ExportJob; action: ConfirmedAction } | null>(null);
  const { text: confirmationText, ...confirmation } = CONFIRMATIONS[asking?.action ?? 'delete'];
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
      onCancel={() => setAsking({ job, action: 'cancel' })}
      onDelete={() => setAsking({ job, action: 'delete' })}
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
      {/* Delete removes a file and Cancel stops a job for good: both ask first. */}
      <ConfirmModal
        opened={asking !== null}
        {...confirmation}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (!asking) return;
          setAsking(null);
          void act(asking.job, asking.action === 'delete' ? deleteExportJob : cancelExportJob);
        }}
      >
        {asking ? `${exportZipName(asking.job.job_params.fileName)}: ${confirmationText}` : ''}
      </ConfirmModal>
    </Stack>
  );
}
