import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import {
  type HiddenField,
  type ListedParticipant,
  PARTICIPANT_MESSAGES,
  PARTICIPANT_SORT_COLUMNS,
  type ParticipantSortColumn,
  TABLE,
  TRIAL_MESSAGES,
  type Trial,
  type TrialParticipantsParams,
} from '@trialwear/contract';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { DataTable, type ServerTableQuery } from '../../../components/data-table/data-table';
import { displayableMessage } from '../../../lib/api-client';
import { useCurrentTrial } from '../../../lib/current-trial';
import { canManageParticipants, canManageTrialUsers } from '../../../lib/permissions';
import { useSession } from '../../../lib/session/session-context';
import { useDeviceStatusRefresh } from '../../device-links';
import { RedcapModal } from '../../redcap';
import { fetchTrialParticipants, useTrialCode, useTrialParticipantsWindow } from '../api/participants-api';
import { EditParticipantModal } from '../components/edit-participant-modal';
import { ImportParticipantsModal } from '../components/import-participants-modal';
import {
  hideableParticipantColumns,
  participantColumns,
  participantExportColumns,
} from '../components/participant-columns';

// Until the team's setting is known, both fields count as hidden (core §3).
const BOTH_HIDDEN: HiddenField[] = ['email', 'notes'];
const NO_ROWS: ListedParticipant[] = [];

/**
 * What the table shows, as the list's query (decision 040): the page, its
 * size, the global filter and the one sorted column.
 */
function listParams(q: ServerTableQuery): TrialParticipantsParams {
  const sort = q.sorting[0];
  const sortable = sort && (PARTICIPANT_SORT_COLUMNS as readonly string[]).includes(sort.id);
  return {
    page: q.pageIndex + 1,
    pageSize: q.pageSize,
    filter: q.globalFilter || undefined,
    ...(sortable ? { sort: sort.id as ParticipantSortColumn, order: sort.desc ? 'desc' : 'asc' } : {}),
  };
}

export default function TrialPage() {
  const trial = useCurrentTrial();
  if (!trial) return <Alert color="red">{TRIAL_MESSAGES.notFound}</Alert>;
  return <TrialParticipants trial={trial} />;
}

function TrialParticipants({ trial }: { trial: Trial }) {
  const { session } = useSession();
  const role = session.kind === 'authorized' ? session.user.role : null;
  const navigate = useNavigate();
  // The table asks for what it shows (its remembered state first); the server pages, filters and sorts.
  const [params, setParams] = useState<TrialParticipantsParams | null>(null);
  const onQueryChange = useCallback((q: ServerTableQuery) => setParams(listParams(q)), []);
  const list = useTrialParticipantsWindow(trial.trialId, params);
  const code = useTrialCode(trial.trialId);
  const hidden = list.data?.hiddenFields ?? BOTH_HIDDEN;
  const [selected, setSelected] = useState<ListedParticipant[]>([]);
  const [editing, setEditing] = useState<ListedParticipant | null>(null);
  const [importing, setImporting] = useState(false);
  const [redcap, setRedcap] = useState(false);
  const writer = canManageParticipants(role);
  const deviceStatus = useDeviceStatusRefresh(list.data?.participants ?? NO_ROWS);

  const columns = useMemo<ColumnDef<ListedParticipant, unknown>[]>(() => {
    const cols = participantColumns<ListedParticipant>(hidden);
    if (writer) {
      cols.push({
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        enableGlobalFilter: false,
        cell: ({ row }) => (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="light" onClick={() => setEditing(row.original)}>
              Edit Participant
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => navigate('/Participant', { state: { participant: row.original, trial } })}
            >
              Manage Participant
            </Button>
          </Group>
        ),
      });
    }
    return cols;
  }, [hidden, writer, navigate, trial]);

  const exportColumns = useMemo(() => participantExportColumns(hidden), [hidden]);
  // The export holds every participant matching the filter, in the table's order: not only this page.
  const exportRows = useCallback(async () => {
    if (!params) return [];
    const { page: _page, pageSize: _size, ...matching } = params;
    return (await fetchTrialParticipants(trial.trialId, matching)).participants;
  }, [params, trial.trialId]);
  const hideable = useMemo(() => hideableParticipantColumns(hidden), [hidden]);

  const onSelection = useCallback((rows: ListedParticipant[]) => setSelected(rows), []);
  const viewSelected = () => {
    if (selected.length === 1)
      navigate('/ParticipantOverview', { state: { participant: selected[0], trial } });
    else
      navigate('/ParticipantsDataPage', {
        // The participant code too: the comparison pages' legends name participants by it.
        state: {
          participants: selected.map((p) => ({
            id: p.id,
            email: p.email ?? '',
            participant_code: p.participant_code ?? null,
          })),
          trial,
        },
      });
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>
            Trial #{trial.trialNumber} - {trial.trialName}
          </Title>
          {code.data && (
            <Text size="sm" c="dimmed">
              Participant codes start with {code.data}-
            </Text>
          )}
        </div>
        <Group>
          <Anchor
            component="button"
            type="button"
            onClick={() => navigate(`/StudyHealth?trialId=${trial.trialId}`, { state: { trial } })}
          >
            Study health
          </Anchor>
          {canManageTrialUsers(role) && (
            <Anchor
              component="button"
              type="button"
              onClick={() => navigate('/TrialUsers', { state: { trial } })}
            >
              Manage Users for this trial
            </Anchor>
          )}
          {writer && (
            <Button variant="light" onClick={() => setRedcap(true)}>
              REDCap
            </Button>
          )}
          {writer && (
            <Button variant="light" onClick={() => setImporting(true)}>
              Import participants
            </Button>
          )}
          {writer && (
            <Button onClick={() => navigate('/AddParticipantPage', { state: { trial } })}>
              Add Participant
            </Button>
          )}
        </Group>
      </Group>
      {list.error && <Alert color="red">{displayableMessage(list.error, TRIAL_MESSAGES.notFound)}</Alert>}
      {deviceStatus.incomplete && (
        <Alert color="yellow">
          Some device information could not be loaded. Participants are still displayed.
        </Alert>
      )}
      <DataTable
        label="Participants"
        data={list.data?.participants ?? NO_ROWS}
        columns={columns}
        getRowId={(p) => String(p.id)}
        stateKey={`participants.${trial.trialId}`}
        emptyText={list.isLoading || !params ? 'Loading…' : PARTICIPANT_MESSAGES.emptyTrial}
        selection={{ max: TABLE.participantSelectionMax, onChange: onSelection }}
        hideableColumns={hideable}
        exportAs={{
          fileBase: `trial_${trial.trialNumber}_participants`,
          columns: exportColumns,
          rows: exportRows,
        }}
        server={{ total: list.data?.total ?? 0, onQueryChange, sortable: true, pageSizes: true }}
        toolbar={
          <Button variant="light" disabled={selected.length === 0} onClick={viewSelected}>
            {selected.length > 1 ? `View data of ${selected.length} participants` : 'View participant data'}
          </Button>
        }
      />
      {importing && (
        <ImportParticipantsModal
          trialId={trial.trialId}
          hidden={hidden}
          onClose={() => setImporting(false)}
        />
      )}
      {redcap && (
        <RedcapModal
          trialId={trial.trialId}
          admin={canManageTrialUsers(role)}
          onClose={() => setRedcap(false)}
        />
      )}
      {editing && (
        <EditParticipantModal
          participant={editing}
          trialId={trial.trialId}
          codePrefix={code.data}
          hidden={hidden}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
