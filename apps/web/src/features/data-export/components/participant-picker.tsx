/*
 * The export form's participant picker: the trial's participants linked to
 * the chosen device's brand, searchable, with "Select all" and "Clear". It
 * stays disabled until a trial and a device are chosen, or when nobody of the
 * trial has linked the device.
 */
import { MultiSelect, Stack } from '@mantine/core';
import type { BatchExportBody, ExportParticipant } from '@trialwear/contract';
import { type Control, Controller } from 'react-hook-form';
import { participantLabel } from '../export-format';
import type { ExportFormValues } from './export-form';
import { SelectAllClear } from './select-all-clear';

export function ParticipantPicker({
  control,
  ready,
  participants,
  error,
}: {
  control: Control<ExportFormValues, unknown, BatchExportBody>;
  /** A trial and a device are chosen. */
  ready: boolean;
  participants: { data?: ExportParticipant[]; isLoading: boolean; isSuccess: boolean };
  error?: string;
}) {
  const participantOptions = (participants.data ?? []).map((p) => ({
    value: String(p.participantId),
    label: participantLabel(p),
  }));
  return (
    <Controller
      control={control}
      name="participantIds"
      render={({ field }) => {
        const none = ready && participants.isSuccess && participantOptions.length === 0;
        return (
          <Stack gap={4}>
            <MultiSelect
              ref={field.ref}
              label="Participants"
              withAsterisk
              searchable
              clearable
              hidePickedOptions
              disabled={!ready || none}
              placeholder={
                !ready
                  ? 'Select a trial and a device first'
                  : participants.isLoading
                    ? 'Loading participants…'
                    : field.value.length
                      ? ''
                      : 'Select participants'
              }
              description={
                none
                  ? 'No participant of this trial has linked this device.'
                  : ready && participants.isSuccess
                    ? `${field.value.length} of ${participantOptions.length} selected`
                    : undefined
              }
              nothingFoundMessage="No participant found"
              maxDropdownHeight={260}
              data={participantOptions}
              value={field.value.map(String)}
              onChange={(v) => field.onChange(v.map(Number))}
              onBlur={field.onBlur}
              error={error}
            />
            {ready && participantOptions.length > 1 && (
              <SelectAllClear
                what="participants"
                anySelected={field.value.length > 0}
                onSelectAll={() => field.onChange(participantOptions.map((o) => Number(o.value)))}
                onClear={() => field.onChange([])}
              />
            )}
          </Stack>
        );
      }}
    />
  );
}
