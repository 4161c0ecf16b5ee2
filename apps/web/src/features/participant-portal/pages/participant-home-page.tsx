import { Alert, Button, Group, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { PARTICIPANT_PORTAL_MESSAGES, PROVIDER_BRAND, type SharedDevice } from '@trialwear/contract';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ApiRequestError, displayableMessage } from '../../../lib/api-client';
import {
  participantLogout,
  stopSharing,
  useParticipantAccount,
  useSharedDevices,
} from '../api/participant-portal-api';

const day = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—';

/**
 * The signed-in participant's page (issue #14): each device shared with each
 * study, since when, and "Stop sharing" (revoked at the provider; the study
 * team sees it revoked). A visitor without a participant session goes to
 * the participant login.
 */
export default function ParticipantHomePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useParticipantAccount();
  const sharing = useSharedDevices(account.isSuccess);
  const [stopping, setStopping] = useState<SharedDevice | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  if (account.isPending) return <Loader size="sm" />;
  if (account.error instanceof ApiRequestError && account.error.status === 401)
    return <Navigate to="/ParticipantLoginPage" replace />;
  if (account.isError) return <Alert color="red">{displayableMessage(account.error)}</Alert>;

  const confirmStop = async () => {
    if (!stopping) return;
    setBusy(true);
    try {
      const res = await stopSharing(stopping.linkId);
      setNotice({ ok: true, text: res.message });
      await queryClient.invalidateQueries({ queryKey: ['participantSharing'] });
    } catch (err) {
      setNotice({ ok: false, text: displayableMessage(err, PARTICIPANT_PORTAL_MESSAGES.stopFailed) });
    } finally {
      setBusy(false);
      setStopping(null);
    }
  };
  const signOut = async () => {
    await participantLogout().catch(() => undefined);
    queryClient.removeQueries({ queryKey: ['participantAccount'] });
    queryClient.removeQueries({ queryKey: ['participantSharing'] });
    navigate('/ParticipantLoginPage', { replace: true });
  };

  const links = sharing.data?.links ?? [];
  return (
    <Stack maw={860}>
      <Group justify="space-between">
        <div>
          <Title order={2}>Your shared devices</Title>
          <Text c="dimmed" size="sm">
            Signed in as {account.data.account.username}
          </Text>
        </div>
        <Button variant="default" onClick={signOut}>
          Sign out
        </Button>
      </Group>
      <div aria-live="polite">
        {notice && (
          <Alert color={notice.ok ? 'teal' : 'red'} role={notice.ok ? 'status' : 'alert'}>
            {notice.text}
          </Alert>
        )}
      </div>
      {!account.data.account.emailConfirmed ? (
        <Alert color="yellow">{PARTICIPANT_PORTAL_MESSAGES.emailUnconfirmed}</Alert>
      ) : sharing.isPending ? (
        <Loader size="sm" />
      ) : sharing.isError ? (
        <Alert color="red">{displayableMessage(sharing.error)}</Alert>
      ) : links.length === 0 ? (
        <Text>{PARTICIPANT_PORTAL_MESSAGES.noLinks}</Text>
      ) : (
        <Table aria-label="Shared devices" striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Study</Table.Th>
              <Table.Th>Research team</Table.Th>
              <Table.Th>Device service</Table.Th>
              <Table.Th>Sharing since</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.map((l) => (
              <Table.Tr key={l.linkId}>
                <Table.Td>{l.trialName}</Table.Td>
                <Table.Td>{l.teamName}</Table.Td>
                <Table.Td>{PROVIDER_BRAND[l.provider]}</Table.Td>
                <Table.Td>{day(l.since)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    aria-label={`Stop sharing ${PROVIDER_BRAND[l.provider]} with ${l.trialName}`}
                    onClick={() => setStopping(l)}
                  >
                    Stop sharing
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmModal
        opened={stopping !== null}
        title="Stop sharing?"
        confirmLabel="Stop sharing"
        loading={busy}
        onCancel={() => setStopping(null)}
        onConfirm={confirmStop}
      >
        {stopping &&
          `Your ${PROVIDER_BRAND[stopping.provider]} data will no longer be shared with "${stopping.trialName}". The study team will see that you stopped sharing. To share again, ask them for a new consent link.`}
      </ConfirmModal>
    </Stack>
  );
}
