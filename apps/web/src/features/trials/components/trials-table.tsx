/*
 * The team's trials visible to the user, with the trial actions (open, edit,
 * delete, add): the table of the dashboard and of /Trials.
 */
import { ActionIcon, Alert, Button, Group, Tooltip } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { Role, SessionUser, Trial } from '@trialwear/contract';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { displayableMessage } from '../../../lib/api-client';
import { rememberTrial } from '../../../lib/current-trial';
import { canAddTrial, canDeleteTrial, canEditTrial } from '../../../lib/permissions';
import { useTrials } from '../api/trials-api';
import { type TrialModal, TrialModals } from './trial-modals';

export function TrialsTable({
  user,
  stateKey,
  emptyText,
}: {
  user: SessionUser;
  /** The table's remembered state (filter, sort, page) is kept per page. */
  stateKey: string;
  /** Shown when the list is loaded and empty. */
  emptyText: string;
}) {
  const navigate = useNavigate();
  const trials = useTrials(user.team_id);
  const [modal, setModal] = useState<TrialModal>({ kind: 'none' });

  const openTrial = useCallback(
    (trial: Trial) => {
      rememberTrial(trial);
      navigate('/TrialPage', { state: { trial } });
    },
    [navigate],
  );

  const role = user.role;
  const columns = useMemo<ColumnDef<Trial, unknown>[]>(
    () => [
      { id: 'trialNumber', header: 'Trial Number', accessorKey: 'trialNumber' },
      {
        id: 'trialName',
        header: 'Trial Name',
        accessorKey: 'trialName',
        cell: ({ row }) => (
          <Button variant="subtle" size="compact-sm" onClick={() => openTrial(row.original)}>
            {row.original.trialName}
          </Button>
        ),
      },
      { id: 'trial_code', header: 'Code', accessorKey: 'trial_code' },
      { id: 'participantCount', header: 'Participants', accessorKey: 'participantCount' },
      { id: 'trialOwnerEmail', header: 'Owner', accessorFn: (t) => t.trialOwnerEmail ?? '' },
      { id: 'trialNotes', header: 'Notes', accessorKey: 'trialNotes', enableSorting: false },
      {
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        cell: ({ row }) => (
          <Group gap={4} wrap="nowrap">
            {canEditTrial(role) && (
              <Tooltip label="Edit trial">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Edit trial ${row.original.trialNumber}`}
                  onClick={() => setModal({ kind: 'editTrial', trial: row.original })}
                >
                  ✎
                </ActionIcon>
              </Tooltip>
            )}
            {canDeleteTrial(role) && (
              <Tooltip label="Delete trial">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete trial ${row.original.trialNumber}`}
                  onClick={() => setModal({ kind: 'deleteTrial', trial: row.original })}
                >
                  ✕
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        ),
      },
    ],
    [role, openTrial],
  );

  return (
    <>
      {trials.error && (
        <Alert color="red">{displayableMessage(trials.error, 'Could not load the trials.')}</Alert>
      )}
      <DataTable
        label="Trials"
        data={trials.data ?? []}
        columns={columns}
        getRowId={(t) => String(t.trialId)}
        stateKey={stateKey}
        emptyText={trials.isLoading ? 'Loading…' : emptyText}
        toolbar={
          canAddTrial(role) && (
            <Button size="sm" onClick={() => setModal({ kind: 'addTrial' })}>
              Add Trial
            </Button>
          )
        }
      />
      <TrialModals modal={modal} teamId={user.team_id} onClose={() => setModal({ kind: 'none' })} />
    </>
  );
}

/**
 * Users and Viewers see only the trials they were added to (design §5), so an
 * empty list must not read as "the team has no trials".
 */
export function noTrialsText(role: Role | null | undefined): string {
  if (canAddTrial(role)) return 'No trials yet';
  return "You see the trials you were added to, and you have not been added to any yet. Ask your team's Admins to add you on a trial's Manage Users page.";
}
