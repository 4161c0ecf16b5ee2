/*
 * Sync health of a participant's devices (issue #11 item 5): a coloured dot
 * AND the status text (colour is never the only signal), with the details
 * in a tooltip on the trial page and in full on Manage Participant.
 */
import { Box, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { type ParticipantSync, type SyncStatus, syncStatusText } from '@trialwear/contract';

const COLOR: Record<SyncStatus, string> = {
  ok: 'green',
  stale: 'orange',
  error: 'red',
  pending: 'gray',
  none: 'gray',
  waiting: 'yellow',
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** One line per fact, for the tooltip and the card. */
export function syncFacts(s: ParticipantSync): Array<[string, string]> {
  return [
    ['Last successful sync', when(s.lastSuccessAt)],
    ['Last data', s.lastDataDate ?? 'none'],
    ['Days with data (last 7)', `${s.daysWithData7d} of 7`],
    ['Readings stored', s.rowsStored.toLocaleString()],
    ...(s.lastError ? ([['Last error', s.lastError]] as Array<[string, string]>) : []),
  ];
}

/** The list cell: a dot and the status text (never cut short); a device being synced also shows its days with data of the last 7. */
export function SyncStatusBadge({ sync }: { sync: ParticipantSync | undefined }) {
  if (!sync) return null;
  const status = (
    <Group gap={6} wrap="nowrap" data-sync-status={sync.status}>
      <Box
        aria-hidden="true"
        w={10}
        h={10}
        style={{
          borderRadius: '50%',
          flexShrink: 0,
          background: `var(--mantine-color-${COLOR[sync.status]}-6)`,
        }}
      />
      <Text size="sm" c={sync.status === 'none' ? 'dimmed' : undefined}>
        {syncStatusText(sync)}
      </Text>
    </Group>
  );
  if (sync.status === 'none') return status;
  return (
    <Tooltip
      multiline
      w={280}
      label={syncFacts(sync).map(([k, v]) => (
        <div key={k}>
          {k}: {v}
        </div>
      ))}
    >
      <Stack
        gap={0}
        tabIndex={0}
        aria-label={`${syncStatusText(sync)}: ${syncFacts(sync)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`}
      >
        {status}
        <Text size="xs" c="dimmed">
          {sync.daysWithData7d}/7 days
        </Text>
      </Stack>
    </Tooltip>
  );
}

/** Manage Participant's device section: the same status with every fact spelled out. */
export function SyncHealthCard({ sync }: { sync: ParticipantSync | undefined }) {
  if (!sync) return null;
  return (
    <Card withBorder aria-label="Data sync">
      <Stack gap={4}>
        <Group justify="space-between">
          <Title order={4}>Data sync</Title>
          <SyncStatusBadge sync={sync} />
        </Group>
        {sync.status === 'none' ? (
          <Text size="sm" c="dimmed">
            No authorized device: nothing is synced.
          </Text>
        ) : (
          syncFacts(sync).map(([k, v]) => (
            <Text key={k} size="sm">
              {k}: <b>{v}</b>
            </Text>
          ))
        )}
      </Stack>
    </Card>
  );
}
