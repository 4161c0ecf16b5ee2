/*
 * The frame of every per-participant data page of Omron, Dexcom, the raw
 * pages and the overview: the participant read from the navigation state —
 * or, for a link opened directly (the study-health digest e-mail, a reload),
 * from the URL's ?trialId=…&participantId=…, loaded through the trial's
 * participant list (scoped on the server: a trial the user may not see is a
 * 404, and a participant not of that trial is simply not found) — the header
 * (ID, code, email when the team shows it) and the return bar
 * 'Trial: #number - name' to /TrialPage (core §2).
 */
import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { DATA_MESSAGES, type Trial } from '@trialwear/contract';
import type { ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import { useTrialParticipants } from '../../participants';
import { useTrials } from '../../trials';

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
  /** The day to open (YYYY-MM-DD), e.g. a study-health cell's. */
  date?: string;
}

/** A positive integer of the URL's query, or null. */
const idParam = (v: string | null) => (v && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : null);

/** The day the page was asked to open: the URL's ?date=YYYY-MM-DD, else the navigation state's. */
export function useAskedDate(): string | undefined {
  const [params] = useSearchParams();
  const state = useDataPageState();
  const asked = params.get('date') ?? state.date;
  return asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : undefined;
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
  const [params] = useSearchParams();
  const participant =
    state.participant ?? (state.participantId !== undefined ? { id: state.participantId } : undefined);
  if (participant && state.trial) return children(participant, state.trial, state);
  // Opened from a link (or reloaded without the navigation's state): the URL names them.
  const trialId = idParam(params.get('trialId'));
  const participantId = idParam(params.get('participantId'));
  if (trialId !== null && participantId !== null)
    return (
      <ParticipantOfUrl trialId={trialId} participantId={participantId} state={state}>
        {children}
      </ParticipantOfUrl>
    );
  if (!participant) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return <Alert color="red">{DATA_MESSAGES.trialNotFound}</Alert>;
}

/** The URL's trial and participant, loaded through the scoped APIs the trial page uses. */
function ParticipantOfUrl({
  trialId,
  participantId,
  state,
  children,
}: {
  trialId: number;
  participantId: number;
  state: DataPageState;
  children: (participant: DataParticipant, trial: Trial, state: DataPageState) => ReactNode;
}) {
  const { session } = useSession();
  const teamId = session.kind === 'authorized' ? session.user.team_id : null;
  const trials = useTrials(teamId);
  const trial = trials.data?.find((t) => t.trialId === trialId);
  // Only a trial the user sees is asked for: another is not found, as the server would answer.
  const participants = useTrialParticipants(trial ? trialId : undefined);
  if (trials.isLoading || (trial && participants.isLoading))
    return <Loader aria-label="Loading participant" />;
  if (!trial) return <Alert color="red">{DATA_MESSAGES.trialNotFound}</Alert>;
  const participant = participants.data?.participants.find((p) => p.id === participantId);
  if (!participant) return <Alert color="red">{DATA_MESSAGES.participantNotFound}</Alert>;
  return children(participant, trial, { ...state, participant, trial });
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
