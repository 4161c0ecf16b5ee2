import { Alert, Button } from '@mantine/core';
import { type ListedParticipant, PARTICIPANT_MESSAGES, type Provider, type Trial } from '@trialwear/contract';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** The participant and trial a page received from Manage Participant (navigation state), or the spec's not-found text. */
export function ParticipantFromState({
  children,
}: {
  children: (participant: ListedParticipant, trial: Trial) => ReactNode;
}) {
  const state = useLocation().state as { participant?: ListedParticipant; trial?: Trial } | null;
  if (!state?.participant || !state.trial) return <Alert color="red">{PARTICIPANT_MESSAGES.notFound}</Alert>;
  return children(state.participant, state.trial);
}

export function BackToManageParticipant({
  participant,
  trial,
}: {
  participant: ListedParticipant;
  trial: Trial;
}) {
  const navigate = useNavigate();
  return (
    <Button variant="default" onClick={() => navigate('/Participant', { state: { participant, trial } })}>
      Back to Manage Participant
    </Button>
  );
}

/** A page about one participant's link to one provider. */
export interface ProviderParticipantProps {
  provider: Provider;
  participant: ListedParticipant;
  trial: Trial;
}
