/*
 * /ParticipantsPage (content left open by the spec): every participant of the
 * trials the user may see in the session's team, with the trial as a column
 * (opening the trial page), and the shared table's filter, sort, paging,
 * hideable columns and export. Hidden fields are left out by the server.
 */
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { HiddenField, ListedParticipant, Trial } from '@trialwear/contract';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { displayableMessage } from '../../../lib/api-client';
import { rememberTrial } from '../../../lib/current-trial';
import { useSession } from '../../../lib/session/session-context';
import { useTeamParticipants } from '../api/participants-api';
import {
  hideableParticipantColumns,
  participantColumns,
  participantExportColumns,
} from '../components/participant-columns';

const BOTH_HIDDEN: HiddenField[] = ['email', 'notes'];
const NO_ROWS: ListedParticipant[] = [];
const trialLabel = (t: Trial | undefined) => (t ? `#${t.trialNumber} - ${t.trialName}` : '');

export default function ParticipantsPage() {
  const { session } = useSession();
  const navigate = useNavigate();
  const user = session.kind === 'authorized' ? session.user : null;
  const list = useTeamParticipants(user?.team_id ?? null);
  const hidden = list.data?.hiddenFields ?? BOTH_HIDDEN;
  const trials = useMemo(() => new Map((list.data?.trials ?? []).map((t) => [t.trialId, t])), [list.data]);

  const openTrial = useCallback(
    (trial: Trial) => {
      rememberTrial(trial);
      navigate('/TrialPage', { state: { trial } });
    },
    [navigate],
  );

  const columns = useMemo<ColumnDef<ListedParticipant, unknown>[]>(
    () => [
      {
        id: 'trial',
        header: 'Trial',
        accessorFn: (p) => trialLabel(trials.get(p.trialId)),
        cell: ({ row }) => {
          const trial = trials.get(row.original.trialId);
          return trial ? (
            <Button variant="subtle" size="compact-sm" onClick={() => openTrial(trial)}>
              {trialLabel(trial)}
            </Button>
          ) : null;
        },
      },
      ...participantColumns<ListedParticipant>(hidden),
    ],
    [hidden, trials, openTrial],
  );
  const exportColumns = useMemo(
    () => [
      { header: 'Trial', value: (r: unknown) => trialLabel(trials.get((r as ListedParticipant).trialId)) },
      ...participantExportColumns(hidden),
    ],
    [hidden, trials],
  );
  const hideable = useMemo(() => hideableParticipantColumns(hidden), [hidden]);

  if (!user) return null;
  return (
    <Stack>
      <div>
        <Title order={2}>Participants</Title>
        <Text c="dimmed" size="sm">
          Participants of every trial of {user.team_name} you can see ({list.data?.trials.length ?? 0}{' '}
          trials).
        </Text>
      </div>
      {list.error && (
        <Alert color="red">{displayableMessage(list.error, 'Could not load the participants.')}</Alert>
      )}
      <DataTable
        label="Participants"
        data={list.data?.participants ?? NO_ROWS}
        columns={columns}
        getRowId={(p) => String(p.id)}
        stateKey="participants.all"
        emptyText={list.isLoading ? 'Loading…' : 'No participants in the trials you can see'}
        hideableColumns={hideable}
        exportAs={{ fileBase: `${user.team_name}_participants`, columns: exportColumns }}
      />
    </Stack>
  );
}
