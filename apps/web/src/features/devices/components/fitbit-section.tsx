/*
 * The fitness-tracker part of the Devices Management panel (core §2):
 * request authorization (emailed consent link), refresh the token, revoke
 * access (then back to the trial page), and the device cards.
 */
import { Alert, Anchor, Button, Card, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Trial } from '@trialwear/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { displayableMessage } from '../../../lib/api-client';
import {
  refreshFitbitToken,
  requestFitbitConsent,
  revokeFitbit,
  useFitbitAuth,
  useFitbitDevices,
} from '../api/fitbit-api';
import { DeviceCard } from './device-card';

export function FitbitSection({
  participantId,
  trial,
  isSysAdmin,
}: {
  participantId: number;
  trial: Trial;
  isSysAdmin: boolean;
}) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const auth = useFitbitAuth(participantId);
  const linked = auth.data?.message === 'found';
  const devices = useFitbitDevices(participantId, linked);
  const [note, setNote] = useState<{ ok: boolean; text: string; link?: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (name: string, fn: () => Promise<void>) => {
    setBusy(name);
    setNote(null);
    try {
      await fn();
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <div>
            <Text fw={600}>Fitness tracker</Text>
            <Text size="sm" c="dimmed">
              Fitbit · {auth.isLoading ? '…' : linked ? 'Authorized' : 'Not authorized'}
            </Text>
          </div>
          <Group gap="xs">
            <Button
              size="xs"
              loading={busy === 'request'}
              onClick={() =>
                run('request', async () => {
                  try {
                    const r = await requestFitbitConsent(participantId);
                    setNote({
                      ok: true,
                      text: r.emailed
                        ? 'The consent link was emailed to the participant.'
                        : 'Give the participant this consent link:',
                      link: r.emailed ? undefined : r.link,
                    });
                  } catch (err) {
                    setNote({
                      ok: false,
                      text: displayableMessage(
                        err,
                        'Authorization failed - Please click Cancel and try again if needed!',
                      ),
                    });
                  }
                })
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
                        await refreshFitbitToken(participantId);
                        setNote({ ok: true, text: 'The access token was refreshed.' });
                        await qc.invalidateQueries({ queryKey: ['fitbitDevices', participantId] });
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
                  onClick={() =>
                    run('revoke', async () => {
                      if (!window.confirm('Revoke the participant\u2019s Fitbit access?')) return;
                      try {
                        await revokeFitbit(participantId);
                        navigate('/TrialPage', { state: { trial } });
                      } catch (err) {
                        setNote({
                          ok: false,
                          text: displayableMessage(
                            err,
                            'Something went wrong! We could not revoke the access token',
                          ),
                        });
                      }
                    })
                  }
                >
                  Revoke Access
                </Button>
              </>
            )}
          </Group>
        </Group>
        {note && (
          <Alert color={note.ok ? 'teal' : 'red'} withCloseButton onClose={() => setNote(null)}>
            {note.text}
            {note.link && (
              <Code block mt="xs">
                <Anchor href={note.link} target="_blank" rel="noreferrer">
                  {note.link}
                </Anchor>
              </Code>
            )}
          </Alert>
        )}
        {devices.error && (
          <Alert color="red">
            Error loading devices: {displayableMessage(devices.error, 'An error occurred')}
          </Alert>
        )}
        {linked && devices.data?.length === 0 && <Text size="sm">No devices reported by Fitbit yet.</Text>}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(devices.data ?? []).map((d, i) => (
            <DeviceCard
              key={`${d.deviceVersion}-${i}`}
              entry={d}
              isSysAdmin={isSysAdmin}
              onViewParticipantData={() =>
                navigate('/ParticipantDataPage', { state: { participantId, trial } })
              }
              onData={(subject) =>
                navigate('/FitbitParticipantDataPage', { state: { participantId, trial, subject } })
              }
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
