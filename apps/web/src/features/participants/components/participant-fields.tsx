/*
 * The fields shared by the add and edit forms: gender, age, email and notes
 * (only when the team shows them), and the code suffix after the trial prefix.
 */
import { Group, Select, Textarea, TextInput } from '@mantine/core';
import {
  ageInputSchema,
  codeSuffixSchema,
  GENDERS,
  type HiddenField,
  LIMITS,
  PARTICIPANT_MESSAGES,
  participantEmailSchema,
} from '@trialwear/contract';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';

export const participantFormSchema = (hidden: HiddenField[]) =>
  z.object({
    gender: z.enum(GENDERS),
    age: ageInputSchema,
    email: hidden.includes('email') ? z.string() : participantEmailSchema,
    notes: z.string().max(LIMITS.notesMax, PARTICIPANT_MESSAGES.notesTooLong),
    codeSuffix: z.union([z.literal(''), codeSuffixSchema]),
  });
export type ParticipantFormValues = z.input<ReturnType<typeof participantFormSchema>>;

export function ParticipantFields({
  form,
  hidden,
  codePrefix,
}: {
  form: UseFormReturn<ParticipantFormValues>;
  hidden: HiddenField[];
  codePrefix: string | undefined;
}) {
  const {
    register,
    watch,
    setValue,
    formState: { errors },
  } = form;
  const notesLength = watch('notes')?.length ?? 0;
  return (
    <>
      <Group grow align="flex-start">
        <Select
          label="Gender"
          data={GENDERS.map((g) => ({
            value: g,
            label: g === 'None' ? 'None' : g[0]!.toUpperCase() + g.slice(1),
          }))}
          value={watch('gender')}
          onChange={(v) =>
            setValue('gender', (v ?? 'None') as ParticipantFormValues['gender'], { shouldValidate: true })
          }
        />
        <TextInput
          label="Age"
          inputMode="numeric"
          maxLength={4}
          error={errors.age?.message}
          {...register('age')}
        />
      </Group>
      {!hidden.includes('email') && (
        <TextInput
          label="Email"
          type="email"
          withAsterisk
          error={errors.email?.message}
          {...register('email')}
        />
      )}
      {!hidden.includes('notes') && (
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          maxLength={LIMITS.notesMax}
          description={`${notesLength}/${LIMITS.notesMax}`}
          error={errors.notes?.message}
          {...register('notes')}
        />
      )}
      <TextInput
        label="Participant Code"
        leftSection={codePrefix ? `${codePrefix}-` : undefined}
        leftSectionWidth={codePrefix ? codePrefix.length * 9 + 24 : undefined}
        description={PARTICIPANT_MESSAGES.suffixRule}
        error={errors.codeSuffix?.message}
        maxLength={LIMITS.codeSuffixMax}
        {...register('codeSuffix', { setValueAs: (v: string) => v.toUpperCase() })}
      />
    </>
  );
}
