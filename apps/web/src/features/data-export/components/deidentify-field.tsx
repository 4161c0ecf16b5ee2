/*
 * De-identified exports on the form (issue #25 item 5, decision 049): the
 * "Shift dates" option, forced on (and said why) when the chosen trial
 * allows only de-identified exports; and, for an Admin, the trial's policy
 * itself as a switch beside it.
 */
import { Checkbox, Stack, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { ExportTrial } from '@trialwear/contract';
import { useEffect, useState } from 'react';
import { type Control, Controller, type UseFormSetValue } from 'react-hook-form';
import { canSetExportPolicy } from '../../../lib/permissions';
import { useSession } from '../../../lib/session/session-context';
import { exportKeys, setExportPolicy } from '../api/data-export-api';
import type { ExportFormValues } from '../export-form-resolver';
import { exportFailureText } from '../export-format';

export function DeidentifyField({
  control,
  setValue,
  trial,
}: {
  control: Control<ExportFormValues>;
  setValue: UseFormSetValue<ExportFormValues>;
  /** The chosen trial, once the list has it. */
  trial: ExportTrial | undefined;
}) {
  const { session } = useSession();
  const role = session.kind === 'authorized' ? session.user.role : null;
  const qc = useQueryClient();
  const [saving, setSaving] = useState(false);
  const onlyDeidentified = trial?.allowIdentifiedExports === false;
  useEffect(() => {
    if (onlyDeidentified) setValue('deidentify', true);
  }, [onlyDeidentified, setValue]);

  const changePolicy = async (allow: boolean) => {
    if (!trial) return;
    setSaving(true);
    try {
      const res = await setExportPolicy(trial.trialId, allow);
      notifications.show({ color: 'teal', message: res.message });
      await qc.invalidateQueries({ queryKey: [...exportKeys.all, 'trials'] });
    } catch (err) {
      notifications.show({ color: 'red', message: exportFailureText(err) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="xs">
      <Controller
        control={control}
        name="deidentify"
        render={({ field }) => (
          <Checkbox
            ref={field.ref}
            label="Shift dates (de-identify)"
            description={
              onlyDeidentified
                ? 'This trial allows only de-identified exports. Every date of a participant moves by the same number of days (0–364), the same in every export of the trial; times of day and values are kept.'
                : 'Every date of a participant moves by the same number of days (0–364), the same in every export of the trial; times of day and values are kept. The file says dates are shifted, never by how much.'
            }
            checked={field.value || onlyDeidentified}
            disabled={onlyDeidentified}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
          />
        )}
      />
      {trial && canSetExportPolicy(role) && (
        <Switch
          label="Allow exports with real dates for this trial"
          description="Admins only. Off: every export of this trial must shift dates."
          checked={trial.allowIdentifiedExports}
          disabled={saving}
          onChange={(e) => void changePolicy(e.currentTarget.checked)}
        />
      )}
    </Stack>
  );
}
