import { Alert, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  type ListedParticipant,
  PARTICIPANT_MESSAGES,
  PROVIDER_BRAND,
  PROVIDERS,
  type TeamAllowedDevice,
  type Trial,
} from '@trialwear/contract';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, displayableMessage } from '../../../lib/api-client';
import { useSession } from '../../auth/session-context';
import { ProviderSection } from '../../devices/components/provider-section';
import { useParticipantMutations } from '../api/participants-api';

/** /Participant: identity and delete; the device authorization panel is built by the device issue. */
export default function ManageParticipantPage() {
  const state = useLocation().state as { participant?: ListedParticipant; trial?: Trial } | null;
  if (!state?.participant || !state.trial) return <Alert color="red">{PARTICIPANT_MESSAGES.notFound}</Alert>;
  return <ManageParticipant participant={state.participant} trial={state.trial} />;
}

function ManageParticipant({ participant, trial }: { participant: ListedParticipant; trial: Trial }) {
  const navigate = useNavigate();
  const { session } = useSession();
  const teamId = session.kind === 'authorized' ? session.user.team_id : null;
  const { remove } = useParticipantMutations(trial.trialId);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const brands = useQuery({
    queryKey: ['teamAllowedDevices', teamId],
    queryFn: () => api.get<TeamAllowedDevice[]>(`/teamAllowedDevices/${teamId}`),
    enabled: teamId !== null,
  });
  const allowed = new Set((brands.data ?? []).map((b) => b.brand_name));
  // Each section only when the team's allowed brands include it (core §2).
  const sections = PROVIDERS.filter((provider) => allowed.has(PROVIDER_BRAND[provider]));

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
      <Title order={3}>Devices Management</Title>
      {brands.isSuccess && sections.length === 0 && (
        <Alert color="gray">No allowed devices available for this team</Alert>
      )}
      <Stack>
        {sections.map((provider) => (
          <ProviderSection
            key={provider}
            provider={provider}
            participantId={participant.id}
            trial={trial}
            isSysAdmin={session.kind === 'authorized' && session.user.role === 'Sys_Admin'}
          />
        ))}
      </Stack>
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
