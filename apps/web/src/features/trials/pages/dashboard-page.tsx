import { ActionIcon, Alert, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { Role, Trial } from '@trialwear/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { clearTableStates } from '../../../components/data-table/table-state';
import { displayableMessage } from '../../../lib/api-client';
import { rememberTrial } from '../../../lib/current-trial';
import { canAddTrial, canDeleteTrial, canEditTrial } from '../../../lib/permissions';
import { useSession } from '../../../lib/session/session-context';
import { useTrials } from '../api/trials-api';
import { TeamPicker } from '../components/team-picker';
import { type TrialModal, TrialModals } from '../components/trial-modals';

/**
 * Users and Viewers see only the trials they were added to (design §5), so an
 * empty list must not read as "the team has no trials".
 */
function noTrialsText(role: Role | null | undefined): string {
  if (canAddTrial(role)) return 'No trials yet';
  return "You see the trials you were added to, and you have not been added to any yet. Ask your team's Admins to add you on a trial's Manage Users page.";
}

export default function DashboardPage() {
  const { session } = useSession();
  const navigate = useNavigate();
  const user = session.kind === 'authorized' ? session.user : null;
  const trials = useTrials(user?.team_id ?? null);
  const [modal, setModal] = useState<TrialModal>({ kind: 'none' });

  // Visiting the dashboard clears the remembered participant-table state (core §2).
  useEffect(() => clearTableStates('participants'), []);

  const openTrial = useCallback(
    (trial: Trial) => {
      rememberTrial(trial);
      navigate('/TrialPage', { state: { trial } });
    },
    [navigate],
  );

  const role = user?.role;
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

  if (!user) return null;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Dashboard</Title>
          <Text c="dimmed" size="sm">
            Welcome, {user.first_name}.{' '}
            {canAddTrial(role)
              ? 'Trials of your team.'
              : "The trials of your team you were added to; your team's Admins add you on a trial's Manage Users page."}
          </Text>
        </div>
        <TeamPicker user={user} />
      </Group>
      {user.team_status !== 'Active' && (
        <Alert color="red">Your team's subscription is no longer active or has expired.</Alert>
      )}
      {trials.error && (
        <Alert color="red">{displayableMessage(trials.error, 'Could not load the trials.')}</Alert>
      )}
      <DataTable
        label="Trials"
        data={trials.data ?? []}
        columns={columns}
        getRowId={(t) => String(t.trialId)}
        stateKey="trials"
        emptyText={trials.isLoading ? 'Loading…' : noTrialsText(role)}
        toolbar={
          canAddTrial(role) && (
            <Button size="sm" onClick={() => setModal({ kind: 'addTrial' })}>
              Add Trial
            </Button>
          )
        }
      />
      <TrialModals modal={modal} teamId={user.team_id} onClose={() => setModal({ kind: 'none' })} />
    </Stack>
  );
}
