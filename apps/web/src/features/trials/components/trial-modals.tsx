/*
 * The trial modals of core §2: none, addTrial, editTrial, deleteTrial.
 * Errors: the server's message prefixed 'Error: ' when displayable, else the
 * spec's generic text for the action.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { LIMITS, TRIAL_MESSAGES, type Trial, type TrialForm, trialFormSchema } from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiRequestError } from '../../../lib/api-client';
import { useTrialMutations } from '../api/trials-api';

export type TrialModal =
  | { kind: 'none' }
  | { kind: 'addTrial' }
  | { kind: 'editTrial'; trial: Trial }
  | { kind: 'deleteTrial'; trial: Trial };

function errorText(err: unknown, fallback: string) {
  return err instanceof ApiRequestError && err.body?.displayToUser ? `Error: ${err.body.message}` : fallback;
}

function TrialFormModal({
  trial,
  teamId,
  onClose,
}: {
  trial?: Trial;
  teamId: number | null;
  onClose: () => void;
}) {
  const { add, edit } = useTrialMutations(teamId);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<TrialForm>({
    resolver: zodResolver(trialFormSchema),
    defaultValues: {
      trialNumber: trial?.trialNumber ?? '',
      trialName: trial?.trialName ?? '',
      trialNotes: trial?.trialNotes ?? '',
    },
  });
  const notesLength = watch('trialNotes')?.length ?? 0;
  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      if (trial) await edit.mutateAsync({ ...values, trialId: trial.trialId });
      else await add.mutateAsync(values);
      onClose();
    } catch (err) {
      setError(errorText(err, trial ? TRIAL_MESSAGES.updateFailed : TRIAL_MESSAGES.addFailed));
    }
  });
  return (
    <Modal opened onClose={onClose} title={trial ? 'Edit trial' : 'Add trial'} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error && (
            <Alert color="red" withCloseButton onClose={() => setError(null)}>
              {error}
            </Alert>
          )}
          <TextInput
            label="Trial Number"
            withAsterisk
            error={errors.trialNumber?.message}
            {...register('trialNumber')}
          />
          <TextInput
            label="Trial Name"
            withAsterisk
            error={errors.trialName?.message}
            {...register('trialName')}
          />
          <Textarea
            label="Trial Notes"
            autosize
            minRows={3}
            maxLength={LIMITS.notesMax}
            description={`${notesLength}/${LIMITS.notesMax}`}
            error={errors.trialNotes?.message}
            {...register('trialNotes')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {trial ? 'Save' : 'Add Trial'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteTrialModal({
  trial,
  teamId,
  onClose,
}: {
  trial: Trial;
  teamId: number | null;
  onClose: () => void;
}) {
  const { remove } = useTrialMutations(teamId);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal opened onClose={onClose} title="Delete trial?" centered>
      <Stack>
        {error && (
          <Alert color="red" withCloseButton onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        <Text>
          Delete trial{' '}
          <b>
            #{trial.trialNumber} - {trial.trialName}
          </b>
          ? This cannot be undone. A trial that still has participants cannot be deleted.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove
                .mutateAsync(trial.trialId)
                .then(onClose, (err) => setError(errorText(err, TRIAL_MESSAGES.deleteFailed)))
            }
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function TrialModals({
  modal,
  teamId,
  onClose,
}: {
  modal: TrialModal;
  teamId: number | null;
  onClose: () => void;
}) {
  switch (modal.kind) {
    case 'none':
      return null;
    case 'addTrial':
      return <TrialFormModal teamId={teamId} onClose={onClose} />;
    case 'editTrial':
      return <TrialFormModal trial={modal.trial} teamId={teamId} onClose={onClose} />;
    case 'deleteTrial':
      return <DeleteTrialModal trial={modal.trial} teamId={teamId} onClose={onClose} />;
  }
}
