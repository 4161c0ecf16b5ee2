import { Badge, Button, Card, Group, Progress, Stack, Text } from '@mantine/core';
import {
  batteryTier,
  DEVICE_TYPE_LABEL,
  type DeviceEntry,
  PROVIDER_BRAND,
  type Provider,
} from '@trialwear/contract';
import { FITBIT_SCALE_BUTTONS, FITBIT_TRACKER_BUTTONS } from '../../device-data';

const TIER_COLOR: Record<ReturnType<typeof batteryTier>, string> = {
  high: 'teal',
  medium: 'lime',
  low: 'orange',
  'very low': 'red',
  empty: 'gray',
};

const OMRON_BUTTONS = ['Blood Pressure', 'Weight'] as const;
const DEXCOM_BUTTONS = ['Glucose'] as const;

/** Data buttons per card (core §2): tracker subjects, a Fitbit scale's weight (device-data's table: the data page reads the label), the Omron service's two. */
function buttonsFor(provider: Provider, entry: DeviceEntry): readonly string[] {
  if (provider === 'omron') return OMRON_BUTTONS;
  if (provider === 'dexcom') return DEXCOM_BUTTONS;
  return entry.deviceType === 'SCALE' ? FITBIT_SCALE_BUTTONS : FITBIT_TRACKER_BUTTONS;
}

/** One linked device (core §2 device cards): name, battery tier, version, type, last sync, data buttons. */
export function DeviceCard({
  provider,
  entry,
  onData,
  isSysAdmin,
  onViewParticipantData,
}: {
  provider: Provider;
  entry: DeviceEntry;
  onData: (subject: string) => void;
  isSysAdmin: boolean;
  onViewParticipantData: () => void;
}) {
  if (entry.hasError) {
    return (
      <Card withBorder bg="red.0">
        <Text fw={600} c="red.8">
          Device error
        </Text>
        <Text size="sm">({entry.errorType})</Text>
        {isSysAdmin && (
          <Button mt="sm" size="xs" variant="light" onClick={onViewParticipantData}>
            View Participant Data
          </Button>
        )}
      </Card>
    );
  }
  const level = entry.batteryLevel;
  const tier = level === null ? null : batteryTier(level);
  const buttons = buttonsFor(provider, entry);
  return (
    <Card withBorder>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text fw={600}>{entry.deviceName ?? `${PROVIDER_BRAND[provider]} device`}</Text>
          {entry.deviceType && <Badge variant="light">{DEVICE_TYPE_LABEL[entry.deviceType]}</Badge>}
        </Group>
        {entry.deviceVersion && <Text size="sm">Version: {entry.deviceVersion}</Text>}
        {level !== null && tier && (
          <Group gap="xs" aria-label={`Battery ${level}% (${tier})`}>
            <Progress value={level} color={TIER_COLOR[tier]} w={80} size="lg" />
            <Text size="sm">
              Battery {level}% · {tier}
            </Text>
          </Group>
        )}
        <Text size="sm" c="dimmed">
          Last sync: {entry.lastSyncTime?.replace('T', ' ').slice(0, 16) ?? '—'}
        </Text>
        <Group gap={4}>
          {buttons.map((b) => (
            <Button key={b} size="compact-xs" variant="light" onClick={() => onData(b)}>
              {b}
            </Button>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}
