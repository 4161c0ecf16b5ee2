/* The tracker part of /ParticipantOverview: links to the Fitbit overview and data pages (they are the Fitbit feature's). */
import { Button, Card, Group, Text } from '@mantine/core';
import type { Trial } from '@trialwear/contract';
import { useNavigate } from 'react-router';
import type { DataParticipant } from '../components/participant-frame';

export function FitbitSection({ participant, trial }: { participant: DataParticipant; trial: Trial }) {
  const navigate = useNavigate();
  const go = (path: string) => navigate(path, { state: { participant, trial } });
  return (
    <Card withBorder>
      <Group justify="space-between">
        <div>
          <Text fw={600}>Fitness tracker</Text>
          <Text size="sm" c="dimmed">
            Fitbit · steps, activity, sleep, heart rate, weight
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="light" size="xs" onClick={() => go('/FitbitParticipantOverview')}>
            Fitbit overview
          </Button>
          <Button variant="light" size="xs" onClick={() => go('/FitbitParticipantDataPage')}>
            Fitbit data
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
