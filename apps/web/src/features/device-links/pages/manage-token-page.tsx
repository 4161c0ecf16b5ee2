/*
 * /FitbitManageParticipantToken and /OmronManageParticipantToken (Sys_Admin,
 * Admin): the participant's token state for the provider — authorized or not,
 * since when, scopes, expiry, last change (never the token) — with refresh
 * and revoke and the spec's token messages. Reached from Manage Participant
 * with the participant and trial as navigation state.
 */
import { Alert, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { LINK_MESSAGES, PROVIDER_BRAND, type Provider, scopeLabel } from '@trialwear/contract';
import { useState } from 'react';
import { displayableMessage } from '../../../lib/api-client';
import { refreshToken, revokeAccess, useTokenStatus } from '../api/device-links-api';
import { type ActionNote, ActionNoteAlert, linkStatusText } from '../components/consent-note';
import {
  BackToManageParticipant,
  ParticipantFromState,
  type ProviderParticipantProps,
} from '../components/participant-from-state';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function ManageTokenPage({ provider }: { provider: Provider }) {
  return (
    <ParticipantFromState>
      {(participant, trial) => <ManageToken provider={provider} participant={participant} trial={trial} />}
    </ParticipantFromState>
  );
}

function ManageToken({ provider, participant, trial }: ProviderParticipantProps) {
  const qc = useQueryClient();
  const brand = PROVIDER_BRAND[provider];
  const token = useTokenStatus(provider, participant.id);
  const [note, setNote] = useState<ActionNote | null>(null);
  const [busy, setBusy] = useState<'refresh' | 'revoke' | null>(null);
  const authorized = token.data?.status === 'authorized';
  const expired = !!token.data?.expiresAt && Date.parse(token.data.expiresAt) < Date.now();

  const act = async (name: 'refresh' | 'revoke', fn: () => Promise<unknown>, ok: string, failed: string) => {
    setBusy(name);
    setNote(null);
    try {
      await fn();
      setNote({ ok: true, text: ok });
    } catch (err) {
      setNote({ ok: false, text: displayableMessage(err, failed) });
    } finally {
      setBusy(null);
      await qc.invalidateQueries({ queryKey: ['tokenStatus', provider, participant.id] });
      await qc.invalidateQueries({ queryKey: ['linkStatus', provider, participant.id] });
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{brand} token management</Title>
        <BackToManageParticipant participant={participant} trial={trial} />
      </Group>
      <Text>
        Participant ID: <b>{participant.id}</b> · Code: <b>{participant.participant_code ?? '—'}</b> · Trial #
        {trial.trialNumber} - {trial.trialName}
      </Text>
      {token.error && <Alert color="red">{displayableMessage(token.error, 'An error occurred')}</Alert>}
      <Card withBorder>
        <Table aria-label="Token" variant="vertical" withRowBorders={false}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={200}>Status</Table.Th>
              <Table.Td>
                <Badge color={authorized ? 'teal' : 'gray'} variant="light">
                  {linkStatusText(token.data)}
                </Badge>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Authorized since</Table.Th>
              <Table.Td>{authorized ? when(token.data?.authorizationDate ?? null) : '—'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Scopes</Table.Th>
              <Table.Td>
                <Group gap={4}>
                  {token.data?.scopes.length
                    ? token.data.scopes.map((s) => (
                        // In words, as written (a Badge's capitals made URLs unreadable); the scope itself on hover.
                        <Badge key={s} size="sm" variant="outline" tt="none" title={s}>
                          {scopeLabel(s)}
                        </Badge>
                      ))
                    : '—'}
                </Group>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Access token expires</Table.Th>
              <Table.Td>
                {when(token.data?.expiresAt ?? null)}
                {expired && (
                  <Badge ml="xs" color="orange" size="sm">
                    expired: refreshed on next use
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Token last changed</Table.Th>
              <Table.Td>{when(token.data?.tokenUpdatedAt ?? null)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Card>
      <Group>
        <Button
          disabled={!authorized || !token.data?.refreshable}
          loading={busy === 'refresh'}
          onClick={() =>
            act(
              'refresh',
              () => refreshToken(provider, participant.id),
              'The access token was refreshed.',
              LINK_MESSAGES.refreshFailed,
            )
          }
        >
          Refresh Token
        </Button>
        <Button
          color="red"
          variant="light"
          disabled={!authorized}
          loading={busy === 'revoke'}
          onClick={() => {
            if (!window.confirm(`Revoke the participant\u2019s ${brand} access?`)) return;
            void act(
              'revoke',
              () => revokeAccess(provider, participant.id),
              'Access revoked.',
              LINK_MESSAGES.revokeFailed,
            );
          }}
        >
          Revoke Access
        </Button>
      </Group>
      {note && <ActionNoteAlert note={note} onClose={() => setNote(null)} />}
      {!authorized && token.isSuccess && (
        <Text size="sm" c="dimmed">
          No {brand} token: request the participant’s consent from Manage Participant.
        </Text>
      )}
    </Stack>
  );
}

export const FitbitManageTokenPage = () => <ManageTokenPage provider="fitbit" />;
export const OmronManageTokenPage = () => <ManageTokenPage provider="omron" />;
