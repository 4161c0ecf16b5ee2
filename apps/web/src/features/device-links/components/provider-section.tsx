/*
 * One brand's part of the Devices Management panel (core §2): request
 * authorization (emailed consent link), refresh the token, revoke access
 * (then back to the trial page), and the device cards or error card.
 */
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  FITBIT_API_LABELS,
  LINK_MESSAGES,
  PROVIDER_BRAND,
  type Provider,
  type Trial,
} from '@trialwear/contract';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { displayableMessage } from '../../../lib/api-client';
import { refreshToken, revokeAccess, useDevices, useLinkStatus } from '../api/device-links-api';
import { type ActionNote, ActionNoteAlert, linkStatusText, requestConsentNote } from './consent-note';
import { DeviceCard } from './device-card';

const SECTION: Record<Provider, { title: string; dataPage: string }> = {
  fitbit: { title: 'Fitness tracker', dataPage: '/FitbitParticipantDataPage' },
  omron: { title: 'Scale and blood pressure', dataPage: '/OmronParticipantDataPage' },
  dexcom: { title: 'Glucose monitor', dataPage: '/DexcomParticipantDataPage' },
};

export function ProviderSection({
  provider,
  participantId,
  trial,
  isSysAdmin,
}: {
  provider: Provider;
  participantId: number;
  trial: Trial;
  isSysAdmin: boolean;
}) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  // Manage Participant's own state: the data pages show the same participant header (ID, code, email).
  const participant = (useLocation().state as { participant?: unknown } | null)?.participant;
  const t = { ...SECTION[provider], brand: PROVIDER_BRAND[provider] };
  const status = useLinkStatus(provider, participantId);
  const linked = status.data?.status === 'authorized';
  const devices = useDevices(provider, participantId);
  const [note, setNote] = useState<ActionNote | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);

  const revoke = () =>
    run('revoke', async () => {
      try {
        await revokeAccess(provider, participantId);
        setConfirmingRevoke(false);
        navigate('/TrialPage', { state: { trial } });
      } catch (err) {
        setConfirmingRevoke(false);
        setNote({ ok: false, text: displayableMessage(err, LINK_MESSAGES.revokeFailed) });
      }
    });

  const run = async (name: string, fn: () => Promise<void>) => {
    setBusy(name);
    setNote(null);
    try {
      await fn();
    } finally {
      setBusy(null);
    }
  };

  const statusText = linkStatusText(status.isLoading ? undefined : status.data);

  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <div>
            <Text fw={600}>{t.title}</Text>
            <Text size="sm" c="dimmed">
              {t.brand} · {statusText}
            </Text>
            {status.data?.api && (
              // Which API the link reads through (issue #13): legacy Fitbit Web API or Google Health API.
              <Text size="sm" c="dimmed">
                API: {FITBIT_API_LABELS[status.data.api]}
              </Text>
            )}
          </div>
          <Group gap="xs">
            <Button
              size="xs"
              loading={busy === 'request'}
              // WCAG 2.5.3: the name holds the visible text as a phrase, then the brand.
              aria-label={`Request Authorization for ${t.brand}`}
              onClick={() =>
                run('request', async () => setNote(await requestConsentNote(provider, participantId)))
              }
            >
              Request Authorization
            </Button>
            {linked && (
              <>
                <Button
                  size="xs"
                  variant="default"
                  loading={busy === 'refresh'}
                  onClick={() =>
                    run('refresh', async () => {
                      try {
                        await refreshToken(provider, participantId);
                        setNote({ ok: true, text: 'The access token was refreshed.' });
                        await qc.invalidateQueries({ queryKey: ['devices', provider, participantId] });
                      } catch (err) {
                        setNote({ ok: false, text: displayableMessage(err, 'Error: refresh token failed!') });
                      }
                    })
                  }
                >
                  Refresh Token
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  loading={busy === 'revoke'}
                  onClick={() => setConfirmingRevoke(true)}
                >
                  Revoke Access
                </Button>
              </>
            )}
          </Group>
        </Group>
        {status.data?.reconsentRequired && (
          <Alert color="orange" title="Consent needed">
            {LINK_MESSAGES.reconsent}
          </Alert>
        )}
        {note && <ActionNoteAlert note={note} onClose={() => setNote(null)} />}
        {devices.error && (
          <Alert color="red">
            Error loading devices: {displayableMessage(devices.error, 'An error occurred')}
          </Alert>
        )}
        {linked && devices.data?.length === 0 && <Text size="sm">No device data reported yet.</Text>}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(devices.data ?? []).map((d, i) => (
            <DeviceCard
              key={`${d.deviceVersion}-${i}`}
              provider={provider}
              entry={d}
              isSysAdmin={isSysAdmin}
              onViewParticipantData={() =>
                navigate('/ParticipantDataPage', { state: { participant, participantId, trial } })
              }
              onData={(subject) =>
                navigate(t.dataPage, { state: { participant, participantId, trial, subject } })
              }
            />
          ))}
        </SimpleGrid>
      </Stack>
      <ConfirmModal
        opened={confirmingRevoke}
        title={`Revoke ${t.brand} access?`}
        confirmLabel="Revoke"
        loading={busy === 'revoke'}
        onCancel={() => setConfirmingRevoke(false)}
        onConfirm={revoke}
      >
        Revoke the participant’s {t.brand} access? The portal stops reading their data until they authorize
        again.
      </ConfirmModal>
    </Card>
  );
}
