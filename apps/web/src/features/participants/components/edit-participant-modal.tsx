import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { type HiddenField, type ListedParticipant, PARTICIPANT_MESSAGES } from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { PhiBanner } from '../../../components/phi-banner';
import { displayableMessage } from '../../../lib/api-client';
import { useParticipantMutations } from '../api/participants-api';
import { codeChangeError } from '../participant-errors';
import { ParticipantFields, type ParticipantFormValues, participantFormSchema } from './participant-fields';

/**
 * Edit: the fields through PUT /participant, then the code through PATCH …/code
 * only when it changed (core §4: unchanged, changed, or cleared).
 */
export function EditParticipantModal({
  participant,
  trialId,
  codePrefix,
  hidden,
  onClose,
}: {
  participant: ListedParticipant;
  trialId: number;
  codePrefix: string | undefined;
  hidden: HiddenField[];
  onClose: () => void;
}) {
  const { edit, changeCode } = useParticipantMutations(trialId);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ParticipantFormValues>({
    resolver: zodResolver(participantFormSchema(hidden)),
    mode: 'onChange',
    defaultValues: {
      gender: participant.gender,
      age: participant.age === null ? '' : String(participant.age),
      email: participant.email ?? '',
      notes: participant.notes ?? '',
      codeSuffix: participant.participant_code_suffix ?? '',
    },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await edit.mutateAsync({
        id: participant.id,
        gender: v.gender,
        age: v.age,
        ...(hidden.includes('email') ? {} : { email: v.email }),
        ...(hidden.includes('notes') ? {} : { notes: v.notes }),
      });
    } catch (err) {
      setError(displayableMessage(err, PARTICIPANT_MESSAGES.editFailed));
      return;
    }
    const suffix = v.codeSuffix === '' ? null : v.codeSuffix;
    if (suffix !== (participant.participant_code_suffix ?? null)) {
      try {
        await changeCode.mutateAsync({ participantId: participant.id, suffix });
      } catch (err) {
        setError(codeChangeError(err, `${codePrefix ?? ''}-${suffix ?? ''}`));
        return;
      }
    }
    onClose();
  });
  return (
    <Modal opened onClose={onClose} title={`Edit participant #${participant.id}`} centered size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <PhiBanner />
          {error && (
            <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
              {error}
            </Alert>
          )}
          <ParticipantFields form={form} hidden={hidden} codePrefix={codePrefix} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={edit.isPending || changeCode.isPending}
              disabled={!form.formState.isValid}
            >
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
