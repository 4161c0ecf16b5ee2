import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { type HiddenField, PARTICIPANT_MESSAGES, TRIAL_MESSAGES } from '@trialwear/contract';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { PhiBanner } from '../../../components/phi-banner';
import { useCurrentTrial } from '../../../lib/current-trial';
import { canManageParticipants } from '../../../lib/permissions';
import { useSession } from '../../../lib/session/session-context';
import { useParticipantMutations, useTrialCode, useTrialParticipantsWindow } from '../api/participants-api';

// The form needs only the team's hidden fields, which come with any answer: one small page, not the trial.
const SMALLEST_PAGE = { page: 1, pageSize: 10 };

import {
  ParticipantFields,
  type ParticipantFormValues,
  participantFormSchema,
} from '../components/participant-fields';
import { addParticipantError } from '../participant-errors';

// Until the team's setting is known, both fields count as hidden (core §3).
const BOTH_HIDDEN: HiddenField[] = ['email', 'notes'];

export const CANNOT_ADD_PARTICIPANTS =
  'You cannot add participants: your role in this team is Viewer. Ask your team\u2019s Admins if you need to.';

export default function AddParticipantPage() {
  const trial = useCurrentTrial();
  const { session } = useSession();
  const navigate = useNavigate();
  if (!trial) return <Alert color="red">{TRIAL_MESSAGES.notFound}</Alert>;
  // The route is open to Viewers (core §2) but the write is not (core §6): say so before the form.
  if (session.kind === 'authorized' && !canManageParticipants(session.user.role))
    return (
      <Stack maw={640}>
        <Title order={2}>Add Participant</Title>
        <Alert color="yellow" role="alert">
          {CANNOT_ADD_PARTICIPANTS}
        </Alert>
        <Group>
          <Button variant="default" onClick={() => navigate('/TrialPage')}>
            Back to trial
          </Button>
        </Group>
      </Stack>
    );
  return (
    <AddParticipantForm trialId={trial.trialId} title={`Trial #${trial.trialNumber} - ${trial.trialName}`} />
  );
}

function AddParticipantForm({ trialId, title }: { trialId: number; title: string }) {
  const navigate = useNavigate();
  const list = useTrialParticipantsWindow(trialId, SMALLEST_PAGE);
  const code = useTrialCode(trialId);
  const { add } = useParticipantMutations(trialId);
  const hidden = list.data?.hiddenFields ?? BOTH_HIDDEN;
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const form = useForm<ParticipantFormValues>({
    resolver: zodResolver(participantFormSchema(hidden)),
    defaultValues: { gender: 'None', age: '', email: '', notes: '', codeSuffix: '' },
    mode: 'onChange',
  });
  const hintId = useId();
  const disabledHint = !list.data
    ? 'Loading the trial\u2019s settings\u2026'
    : !form.formState.isValid
      ? 'Fill in the fields marked * and correct the ones in red to add the participant.'
      : null;
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    setAdded(null);
    try {
      const res = await add.mutateAsync({ ...values, trialId });
      if (!res.participantId) {
        setError(PARTICIPANT_MESSAGES.noId);
        return;
      }
      setAdded(`Participant ${res.participant_code ?? `#${res.participantId}`} added.`);
      form.reset();
    } catch (err) {
      setError(addParticipantError(err));
    }
  });

  return (
    <Stack maw={640}>
      <div>
        <Title order={2}>Add Participant</Title>
        <Text c="dimmed">{title}</Text>
      </div>
      <PhiBanner />
      {code.error && <Alert color="red">{PARTICIPANT_MESSAGES.trialCodeError}</Alert>}
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {added && (
        <Alert color="teal" role="status">
          {added}
        </Alert>
      )}
      <Card withBorder>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <ParticipantFields form={form} hidden={hidden} codePrefix={code.data} />
            <Group justify="flex-end">
              {disabledHint && (
                <Text size="sm" c="dimmed" id={hintId}>
                  {disabledHint}
                </Text>
              )}
              <Button variant="default" onClick={() => navigate('/TrialPage')}>
                Back to trial
              </Button>
              <Button
                type="submit"
                loading={add.isPending}
                disabled={disabledHint !== null}
                aria-describedby={disabledHint ? hintId : undefined}
              >
                Add Participant
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
