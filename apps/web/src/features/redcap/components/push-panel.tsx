/*
 * The REDCap section's Push tab (Admin): push a range of days now, and the log of pushes.
 */
import { Alert, Badge, Button, Group, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { REDCAP_NIGHTLY_DAYS } from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { useState } from 'react';
import { PhiBanner } from '../../../components/phi-banner';
import { displayableMessage } from '../../../lib/api-client';
import { usePushRedcap, useRedcapLog, useRedcapSettings } from '../api/redcap-api';
import { done, FAILED, plural } from './redcap-notify';

const todayUtc = () => new Date().toISOString().slice(0, 10);

export function PushPanel({ trialId }: { trialId: number }) {
  const settings = useRedcapSettings(trialId, true);
  const log = useRedcapLog(trialId, true);
  const push = usePushRedcap(trialId);
  const yesterday = addDays(todayUtc(), -1);
  const [from, setFrom] = useState(addDays(yesterday, -(REDCAP_NIGHTLY_DAYS - 1)));
  const [to, setTo] = useState(yesterday);
  const [error, setError] = useState<string | null>(null);
  const connected = !!settings.data?.settings;

  const onPush = async () => {
    setError(null);
    try {
      const r = await push.mutateAsync({ from, to });
      done(r.message);
    } catch (err) {
      setError(displayableMessage(err, FAILED));
    }
  };
  const entries = log.data?.entries ?? [];
  return (
    <Stack gap="sm">
      <PhiBanner />
      {!connected && !settings.isLoading && (
        <Alert color="yellow">Connect a REDCap project first (Connection).</Alert>
      )}
      <Text size="sm">
        One instance of the repeating instrument per participant and participant-local day; pushing a day
        again overwrites its instance. Participants whose code suffix is no record of the project are skipped.
      </Text>
      <Group align="flex-end">
        <TextInput
          type="date"
          label="From"
          w={170}
          value={from}
          max={to}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label="To"
          w={170}
          value={to}
          min={from}
          onChange={(e) => setTo(e.currentTarget.value)}
        />
        <Button onClick={onPush} loading={push.isPending} disabled={!connected}>
          Push now
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Text fw={500} size="sm">
        Push log
      </Text>
      <ScrollArea.Autosize mah={260} type="auto">
        <Table striped stickyHeader aria-label="REDCap push log">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Started</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Days</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Sent</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>{new Date(e.startedAt).toLocaleString()}</Table.Td>
                <Table.Td>{e.trigger === 'nightly' ? 'nightly' : (e.startedBy ?? '')}</Table.Td>
                <Table.Td>
                  {e.from} – {e.to}
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={e.status === 'done' ? 'teal' : e.status === 'failed' ? 'red' : 'blue'}
                  >
                    {e.status}
                    {e.attempt > 1 ? ` (try ${e.attempt})` : ''}
                  </Badge>
                  {e.error && (
                    <Text size="xs" c="red">
                      {e.error}
                      {e.willRetry ? ' — will be tried again' : ''}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {e.rows === null ? '' : `${plural(e.rows, 'day')}, ${plural(e.records ?? 0, 'record')}`}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {entries.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" p="sm">
            Nothing pushed yet.
          </Text>
        )}
      </ScrollArea.Autosize>
    </Stack>
  );
}
