import { Alert, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { type ListedParticipant, PARTICIPANT_MESSAGES, type Trial } from '@trialwear/contract';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { displayableMessage } from '../../../lib/api-client';
import { canManageTokens } from '../../../lib/permissions';
import { useSession } from '../../../lib/session/session-context';
import { DevicesManagement } from '../../device-links';
import { useParticipantMutations } from '../api/participants-api';
import { SyncHealthCard } from '../components/sync-status';

/** The consent and token pages of one participant (core §2), reached from here with the same state. */
const PARTICIPANT_PAGES = [
  { path: '/FitbitParticipantConsent', label: 'Fitbit consent page', adminsOnly: false },
  { path: '/DexcomParticipantConsent', label: 'Dexcom consent page', adminsOnly: false },
  { path: '/FitbitManageParticipantToken', label: 'Fitbit token', adminsOnly: true },
  { path: '/OmronManageParticipantToken', label: 'Omron token', adminsOnly: true },
] as const;

/** /Participant: identity and delete, then the devices feature's authorization panel. */
export default function ManageParticipantPage() {
  const state = useLocation().state as { participant?: ListedParticipant; trial?: Trial } | null;
  if (!state?.participant || !state.trial) return <Alert color="red">{PARTICIPANT_MESSAGES.notFound}</Alert>;
  return <ManageParticipant participant={state.participant} trial={state.trial} />;
}

function ManageParticipant({ participant, trial }: { participant: ListedParticipant; trial: Trial }) {
  const navigate = useNavigate();
  const { session } = useSession();
  const teamId = session.kind === 'authorized' ? session.user.team_id : null;
  const role = session.kind === 'authorized' ? session.user.role : null;
  const { remove } = useParticipantMutations(trial.trialId);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Manage Participant</Title>
        <Button variant="default" onClick={() => navigate('/TrialPage', { state: { trial } })}>
          Trial: #{trial.trialNumber} - {trial.trialName}
        </Button>
      </Group>
      {error && (
        <Alert color="red" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Card withBorder>
        <Group justify="space-between">
          <Stack gap={2}>
            <Text>
              Participant ID: <b>{participant.id}</b>
            </Text>
            <Text>
              Code: <b>{participant.participant_code ?? '—'}</b>
            </Text>
            {participant.email !== undefined && (
              <Text>
                Email: <b>{participant.email}</b>
              </Text>
            )}
          </Stack>
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            Delete Participant
          </Button>
        </Group>
      </Card>
      <Group gap="xs" aria-label="Participant pages">
        {PARTICIPANT_PAGES.filter((pg) => !pg.adminsOnly || canManageTokens(role)).map((pg) => (
          <Button
            key={pg.path}
            size="xs"
            variant="light"
            onClick={() => navigate(pg.path, { state: { participant, trial } })}
          >
            {pg.label}
          </Button>
        ))}
      </Group>
      <SyncHealthCard sync={participant.sync} />
      <DevicesManagement
        participantId={participant.id}
        trial={trial}
        teamId={teamId}
        isSysAdmin={session.kind === 'authorized' && session.user.role === 'Sys_Admin'}
      />
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Delete participant?" centered>
        <Stack>
          <Text>
            Delete participant <b>{participant.participant_code ?? `#${participant.id}`}</b> with their device
            links and stored readings? This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutateAsync(participant.id).then(
                  () => navigate('/TrialPage', { state: { trial } }),
                  (err) => {
                    setConfirming(false);
                    setError(displayableMessage(err, PARTICIPANT_MESSAGES.deleteFailed));
                  },
                )
              }
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
