import { Alert, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { DATA_MESSAGES, type Trial } from '@trialwear/contract';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { DataParticipant } from '../page-state';

export type TrackerDevice = 'tracker' | 'scale';

/** Return bar 'Trial: #number - name' (back to /TrialPage), participant ID and email when shown (core §2). */
export function ParticipantHeader({
  title,
  participant,
  trial,
  device,
  onDevice,
  actions,
}: {
  title: string;
  participant: DataParticipant;
  trial: Trial | null;
  device?: TrackerDevice;
  onDevice?: (d: TrackerDevice) => void;
  actions?: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <Stack gap="xs">
      {trial ? (
        <Group>
          <Button variant="subtle" px={0} onClick={() => navigate('/TrialPage', { state: { trial } })}>
            Trial: #{trial.trialNumber} - {trial.trialName}
          </Button>
        </Group>
      ) : (
        <Alert color="yellow" py={4}>
          {DATA_MESSAGES.trialNotFound}
        </Alert>
      )}
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>{title}</Title>
          <Group gap="lg">
            <Text>
              Participant ID: <b>{participant.id}</b>
            </Text>
            {participant.code && <Text>Code: {participant.code}</Text>}
            {participant.email && <Text>Email: {participant.email}</Text>}
          </Group>
        </div>
        <Group>
          {device && onDevice && (
            <SegmentedControl
              aria-label="Device"
              value={device}
              onChange={(v) => onDevice(v as TrackerDevice)}
              data={[
                { value: 'tracker', label: 'Tracker' },
                { value: 'scale', label: 'Scale' },
              ]}
            />
          )}
          {actions}
        </Group>
      </Group>
    </Stack>
  );
}
