/*
 * /FitbitParticipantConsent and /DexcomParticipantConsent (staff writers):
 * request the participant's consent for one provider, hand over the link
 * when the team keeps no participant emails, and watch the link status
 * until the participant has completed it (re-checked every 5 seconds while
 * a request is out). Reached from Manage Participant with the participant
 * and trial as navigation state.
 */
import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { PROVIDER_BRAND, type Provider } from '@trialwear/contract';
import { useState } from 'react';
import { useLinkStatus } from '../api/device-links-api';
import {
  type ActionNote,
  ActionNoteAlert,
  linkStatusText,
  requestConsentNote,
} from '../components/consent-note';
import {
  BackToManageParticipant,
  ParticipantFromState,
  type ProviderParticipantProps,
} from '../components/participant-from-state';

const WATCH_MS = 5000;

export function ParticipantConsentPage({ provider }: { provider: Provider }) {
  return (
    <ParticipantFromState>
      {(participant, trial) => (
        <ParticipantConsent provider={provider} participant={participant} trial={trial} />
      )}
    </ParticipantFromState>
  );
}

function ParticipantConsent({ provider, participant, trial }: ProviderParticipantProps) {
  const brand = PROVIDER_BRAND[provider];
  const [note, setNote] = useState<ActionNote | null>(null);
  const [busy, setBusy] = useState(false);
  const status = useLinkStatus(provider, participant.id, note?.ok ? WATCH_MS : false);
  const completed = status.data?.status === 'authorized';

  const request = async () => {
    setBusy(true);
    setNote(await requestConsentNote(provider, participant.id));
    setBusy(false);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{brand} consent</Title>
        <BackToManageParticipant participant={participant} trial={trial} />
      </Group>
      <Card withBorder>
        <Stack gap="xs">
          <Text>
            Participant ID: <b>{participant.id}</b> · Code: <b>{participant.participant_code ?? '—'}</b>
            {participant.email !== undefined && (
              <>
                {' '}
                · Email: <b>{participant.email}</b>
              </>
            )}
          </Text>
          <Text size="sm" c="dimmed">
            Trial #{trial.trialNumber} - {trial.trialName}
          </Text>
          <Group>
            <Text>Consent status:</Text>
            <Badge color={completed ? 'teal' : 'gray'} variant="light" aria-label="Consent status">
              {completed ? `Completed · ${linkStatusText(status.data)}` : linkStatusText(status.data)}
            </Badge>
            <Button size="compact-sm" variant="subtle" onClick={() => status.refetch()}>
              Check again
            </Button>
          </Group>
        </Stack>
      </Card>
      <Text size="sm">
        The participant opens the consent link, signs in to {brand} and allows sharing. The link is valid for
        7 days and can be used once; requesting again gives a new link.
      </Text>
      <Group>
        <Button loading={busy} onClick={request}>
          Request {brand} Consent
        </Button>
      </Group>
      {note && <ActionNoteAlert note={note} onClose={() => setNote(null)} />}
      {note?.ok && !completed && (
        <Text size="sm" c="dimmed">
          Waiting for the participant to complete the consent…
        </Text>
      )}
      {completed && note?.ok && <Alert color="teal">The participant has completed the consent.</Alert>}
    </Stack>
  );
}

export const FitbitParticipantConsentPage = () => <ParticipantConsentPage provider="fitbit" />;
export const DexcomParticipantConsentPage = () => <ParticipantConsentPage provider="dexcom" />;
