/*
 * The frame of every per-participant data page of Omron, Dexcom, the raw
 * pages and the overview: the participant read from the navigation state,
 * the header (ID, code, email when the team shows it) and the return bar
 * 'Trial: #number - name' to /TrialPage (core §2).
 */
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { DATA_MESSAGES, type Trial } from '@trialwear/contract';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../../../lib/session/session-context';

/** What the pages need of a participant. The email is absent when the team hides it. */
export interface DataParticipant {
  id: number;
  email?: string;
  participant_code?: string | null;
  authorized_devices?: string[];
}

/** The navigation state these pages receive (Manage Participant, the trial page, a device card). */
export interface DataPageState {
  participant?: DataParticipant;
  /** Older callers pass only the id. */
  participantId?: number;
  trial?: Trial;
  category?: string;
  subject?: string;
}

export function useDataPageState(): DataPageState {
  return (useLocation().state ?? {}) as DataPageState;
}

/** The participant and trial of the state, or the spec's not-found messages. */
export function WithParticipant({
  children,
}: {
  children: (participant: DataParticipant, trial: Trial, state: DataPageState) => ReactNode;
}) {
  const state = useDataPageState();
  const participant =
    state.participant ?? (state.participantId !== undefined ? { id: state.participantId } : undefined);
  if (!participant) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  if (!state.trial) return <Alert color="red">{DATA_MESSAGES.trialNotFound}</Alert>;
  return children(participant, state.trial, state);
}

/** A hidden email is replaced on the server by a placeholder (ARCHITECTURE): never shown. */
export const shownEmail = (email: string | undefined) =>
  email && !email.endsWith('@hidden.invalid') ? email : undefined;

/** Name of a participant in legends and headings: the code when there is one, else #id. */
export const participantLabel = (p: DataParticipant) => p.participant_code ?? `#${p.id}`;

export function ParticipantFrame({
  title,
  participant,
  trial,
  actions,
  rawPage,
  children,
}: {
  title: string;
  participant: DataParticipant;
  trial: Trial;
  actions?: ReactNode;
  /** The raw page of this page's provider (or /ParticipantRaw): a 'Raw data' button for Sys_Admin only. */
  rawPage?: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const { session } = useSession();
  const sysAdmin = session.kind === 'authorized' && session.user.role === 'Sys_Admin';
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Title order={2}>{title}</Title>
        <Button variant="default" onClick={() => navigate('/TrialPage', { state: { trial } })}>
          Trial: #{trial.trialNumber} - {trial.trialName}
        </Button>
      </Group>
      <Card withBorder py="xs">
        <Group justify="space-between">
          <Group gap="xl" aria-label="Participant">
            <Text>
              Participant ID: <b>{participant.id}</b>
            </Text>
            {participant.participant_code && (
              <Text>
                Code: <b>{participant.participant_code}</b>
              </Text>
            )}
            {shownEmail(participant.email) && (
              <Text>
                Email: <b>{shownEmail(participant.email)}</b>
              </Text>
            )}
          </Group>
          <Group gap="xs">
            {actions}
            {rawPage && sysAdmin && (
              <Button
                size="xs"
                variant="default"
                onClick={() => navigate(rawPage, { state: { participant, trial } })}
              >
                Raw data
              </Button>
            )}
          </Group>
        </Group>
      </Card>
      {children}
    </Stack>
  );
}
