/*
 * The trial's alerts (issue #23 §4), open first as the server orders them:
 * Admin, Sys_Admin and User acknowledge an open one with a note (a modal);
 * an acknowledged one shows who and when, and the note.
 */
import { Alert, Badge, Button, Card, Group, Modal, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import type { HealthAlert } from '@trialwear/contract';
import { useId, useState } from 'react';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import { useAcknowledgeAlert, useHealthAlerts } from '../api/study-health-api';
import { alertDetailText, RULE_LABELS } from '../heat-map';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => dateTime.format(new Date(iso));

function statusOf(a: HealthAlert) {
  if (a.closedAt) return { label: 'Closed', color: 'gray' };
  if (a.acknowledgedAt) return { label: 'Acknowledged', color: 'blue' };
  return { label: 'Open', color: 'red' };
}

export function AlertsList({ trialId, canAcknowledge }: { trialId: number; canAcknowledge: boolean }) {
  const alerts = useHealthAlerts(trialId);
  const [acknowledging, setAcknowledging] = useState<HealthAlert | null>(null);
  const titleId = useId();
  const list = alerts.data ?? [];
  const open = list.filter((a) => !a.closedAt && !a.acknowledgedAt).length;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" mb="xs">
        <Title order={3} id={titleId}>
          Alerts
        </Title>
        <Text size="sm" c="dimmed">
          {open} open
        </Text>
      </Group>
      {alerts.error && (
        <Alert color="red" role="alert">
          {displayableMessage(alerts.error)}
        </Alert>
      )}
      {alerts.isLoading ? (
        <Text size="sm">Loading alerts…</Text>
      ) : list.length === 0 ? (
        <Text size="sm">No alerts: every participant meets the rules.</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped aria-label="Alerts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Participant</Table.Th>
                <Table.Th scope="col">Rule</Table.Th>
                <Table.Th scope="col">Opened</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Acknowledgement</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((a) => {
                const status = statusOf(a);
                const code = a.participantCode ?? `#${a.participantId}`;
                const detail = alertDetailText(a);
                return (
                  <Table.Tr key={a.id}>
                    <Table.Th scope="row">{code}</Table.Th>
                    <Table.Td>
                      {RULE_LABELS[a.ruleKey]}
                      {detail && (
                        <Text size="xs" c="dimmed">
                          {detail}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{when(a.openedAt)}</Table.Td>
                    <Table.Td>
                      {/* Its own width: beside a long rule detail the column shrank it to "OP…". */}
                      <Badge color={status.color} variant="light" style={{ minWidth: 'max-content' }}>
                        {status.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {a.acknowledgedAt ? (
                        <Stack gap={0}>
                          <Text size="sm">
                            By {a.acknowledgedByName ?? 'a former user'} on {when(a.acknowledgedAt)}
                          </Text>
                          {a.note && (
                            <Text size="sm" c="dimmed">
                              “{a.note}”
                            </Text>
                          )}
                        </Stack>
                      ) : !a.closedAt && canAcknowledge ? (
                        <Button
                          size="compact-sm"
                          variant="light"
                          onClick={() => setAcknowledging(a)}
                          aria-label={`Acknowledge ${RULE_LABELS[a.ruleKey]} of ${code}`}
                        >
                          Acknowledge
                        </Button>
                      ) : (
                        <Text size="sm" c="dimmed">
                          —
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {acknowledging && (
        <AcknowledgeModal trialId={trialId} alert={acknowledging} onClose={() => setAcknowledging(null)} />
      )}
    </Card>
  );
}

function AcknowledgeModal({
  trialId,
  alert,
  onClose,
}: {
  trialId: number;
  alert: HealthAlert;
  onClose: () => void;
}) {
  const ack = useAcknowledgeAlert(trialId);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const code = alert.participantCode ?? `#${alert.participantId}`;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await ack.mutateAsync({ alertId: alert.id, note });
      onClose();
    } catch (err) {
      const field =
        err instanceof ApiRequestError ? err.body?.errors?.find((f) => f.path === 'note') : undefined;
      setError(field?.message ?? displayableMessage(err));
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Acknowledge: ${RULE_LABELS[alert.ruleKey]} of ${code}`} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Textarea
            label="Note"
            description="What was done, e.g. “Called: the tracker was left at home”."
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            error={error}
            autosize
            minRows={3}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={ack.isPending}>
              Acknowledge
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
