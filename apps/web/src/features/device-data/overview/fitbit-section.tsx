/*
 * The tracker part of /ParticipantOverview: the Fitbit feature's 7-vs-7
 * overview tiles (lazily loaded from its index) and links to the Fitbit
 * overview and data pages.
 */
import { Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import type { Trial } from '@trialwear/contract';
import { Suspense } from 'react';
import { useNavigate } from 'react-router';
import { type DataParticipant, shownEmail } from '../components/participant-frame';
import { FitbitOverviewTiles } from '../index';

export function FitbitSection({ participant, trial }: { participant: DataParticipant; trial: Trial }) {
  const navigate = useNavigate();
  const state = { participant, trial };
  const go = (path: string) => navigate(path, { state });
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <div>
            <Text fw={600}>Fitness tracker</Text>
            <Text size="sm" c="dimmed">
              Fitbit · last 7 days against the 7 before
            </Text>
          </div>
          <Group gap="xs">
            <Button variant="light" size="xs" onClick={() => go('/FitbitParticipantOverview')}>
              Fitbit overview
            </Button>
            <Button variant="light" size="xs" onClick={() => go('/FitbitParticipantDataPage')}>
              More Fitbit data
            </Button>
          </Group>
        </Group>
        <Suspense fallback={<Loader size="sm" aria-label="Loading Fitbit overview" />}>
          <FitbitOverviewTiles
            participant={{
              id: participant.id,
              email: shownEmail(participant.email),
              code: participant.participant_code ?? null,
            }}
            onOpenSubject={(subject) => navigate(`/FitbitParticipantDataPage?subject=${subject}`, { state })}
          />
        </Suspense>
      </Stack>
    </Card>
  );
}
