/*
 * The REDCap section's Enrol tab: the project's records previewed as participants, then applied.
 */
import { Alert, Badge, Button, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { RedcapEnrolPreview } from '@trialwear/contract';
import { useState } from 'react';
import { ErrorList } from '../../../components/error-list';
import { PhiBanner } from '../../../components/phi-banner';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import { useRedcapEnrol } from '../api/redcap-api';
import { done, FAILED } from './redcap-notify';

const VERDICT_COLOR = { create: 'teal', update: 'blue', unchanged: 'gray', refused: 'red' } as const;

export function EnrolPanel({ trialId }: { trialId: number }) {
  const { preview, apply } = useRedcapEnrol(trialId);
  const [result, setResult] = useState<RedcapEnrolPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const runPreview = async () => {
    setError(null);
    setResult(null);
    try {
      setResult(await preview.mutateAsync());
    } catch (err) {
      setError(displayableMessage(err, FAILED));
    }
  };
  const onApply = async () => {
    if (!result) return;
    setError(null);
    try {
      const applied = await apply.mutateAsync(result.previewDigest);
      done(applied.message);
      setResult(null);
    } catch (err) {
      setError(displayableMessage(err, FAILED));
      if (err instanceof ApiRequestError && err.status === 409) void runPreview();
    }
  };
  const changes = result ? result.counts.create + result.counts.update : 0;
  return (
    <Stack gap="sm">
      <PhiBanner />
      <Text size="sm">
        The project's records as participants of this trial: the record id becomes the participant code's
        suffix, the email field the participant's email. Nothing changes until you apply the preview.
      </Text>
      <Group>
        <Button variant="light" onClick={runPreview} loading={preview.isPending}>
          Preview records
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {result && (
        <>
          <Group gap="xs">
            {(['create', 'update', 'unchanged', 'refused'] as const).map((v) => (
              <Badge key={v} color={VERDICT_COLOR[v]} variant="light" size="lg">
                {result.counts[v]} {v === 'create' ? 'to create' : v === 'update' ? 'to update' : v}
              </Badge>
            ))}
            {result.maxParticipants !== null && (
              <Text size="sm" c="dimmed">
                The team has {result.teamParticipants} of at most {result.maxParticipants} participants.
              </Text>
            )}
          </Group>
          <ScrollArea.Autosize mah={320} type="auto">
            <Table striped stickyHeader aria-label="Enrolment preview">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Record</Table.Th>
                  <Table.Th>Participant Code</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Verdict</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.rows.map((r) => (
                  <Table.Tr key={r.recordId}>
                    <Table.Td>{r.recordId}</Table.Td>
                    <Table.Td>{r.participantCode ?? ''}</Table.Td>
                    <Table.Td>
                      {r.email ?? ''}
                      {r.currentEmail && (
                        <Text size="xs" c="dimmed">
                          now {r.currentEmail}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {r.verdict === 'refused' ? (
                        <ErrorList errors={r.errors} />
                      ) : (
                        <Badge color={VERDICT_COLOR[r.verdict]} variant="light">
                          {r.verdict}
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button onClick={onApply} loading={apply.isPending} disabled={changes === 0}>
              {`Apply: create ${result.counts.create}, update ${result.counts.update}`}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
