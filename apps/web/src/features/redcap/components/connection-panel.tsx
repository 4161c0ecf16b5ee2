/*
 * The REDCap section's Connection tab (Admin): the project's URL and token,
 * the fields, the daily summaries' field mapping, Test connection and Save.
 */
import { Alert, Button, Group, PasswordInput, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import {
  REDCAP_METRIC_LABELS,
  REDCAP_METRICS,
  REDCAP_NIGHTLY_DAYS,
  type RedcapMetric,
  type RedcapSettings,
  type RedcapTestResult,
} from '@trialwear/contract';
import { useEffect, useState } from 'react';
import { displayableMessage } from '../../../lib/api-client';
import { useRedcapSettings, useSaveRedcapSettings, useTestRedcap } from '../api/redcap-api';
import { done, FAILED, fieldErrors } from './redcap-notify';

interface Form {
  apiUrl: string;
  token: string;
  recordIdField: string;
  emailField: string;
  instrument: string;
  eventName: string;
  dateField: string;
  fieldMap: Partial<Record<RedcapMetric, string>>;
  pushEnabled: boolean;
}

const EMPTY: Form = {
  apiUrl: '',
  token: '',
  recordIdField: 'record_id',
  emailField: '',
  instrument: '',
  eventName: '',
  dateField: '',
  fieldMap: {},
  pushEnabled: false,
};

const formOf = (s: RedcapSettings): Form => ({
  apiUrl: s.apiUrl,
  token: '',
  recordIdField: s.recordIdField,
  emailField: s.emailField ?? '',
  instrument: s.instrument,
  eventName: s.eventName ?? '',
  dateField: s.dateField,
  fieldMap: s.fieldMap,
  pushEnabled: s.pushEnabled,
});

export function ConnectionPanel({ trialId }: { trialId: number }) {
  const settings = useRedcapSettings(trialId, true);
  const save = useSaveRedcapSettings(trialId);
  const test = useTestRedcap(trialId);
  const stored = settings.data?.settings ?? null;
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState<RedcapTestResult | null>(null);
  useEffect(() => {
    if (stored) setForm(formOf(stored));
  }, [stored]);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const text = (
    key: 'apiUrl' | 'recordIdField' | 'emailField' | 'instrument' | 'dateField' | 'eventName',
    label: string,
    more: { description?: string; placeholder?: string; required?: boolean } = {},
  ) => (
    <TextInput
      label={label}
      {...more}
      value={form[key]}
      onChange={(e) => set({ [key]: e.currentTarget.value })}
      error={errors[key]}
    />
  );
  const setMetric = (metric: RedcapMetric, field: string) =>
    setForm((f) => ({ ...f, fieldMap: { ...f.fieldMap, [metric]: field } }));

  const onTest = async () => {
    setTested(null);
    try {
      setTested(await test.mutateAsync({ apiUrl: form.apiUrl || undefined, token: form.token || undefined }));
    } catch (err) {
      setTested({ ok: false, message: displayableMessage(err, FAILED), project: null });
    }
  };
  const onSave = async () => {
    setErrors({});
    setError(null);
    try {
      const fieldMap = Object.fromEntries(Object.entries(form.fieldMap).filter(([, v]) => v?.trim()));
      await save.mutateAsync({ ...form, fieldMap, token: form.token || null });
      set({ token: '' });
      done('REDCap settings saved.');
    } catch (err) {
      setErrors(fieldErrors(err));
      setError(displayableMessage(err, FAILED));
    }
  };

  if (settings.isLoading) return <Text size="sm">Loading…</Text>;
  return (
    <Stack gap="sm">
      <Text size="sm">
        Connect this trial to a REDCap project: its API URL and an API token of a REDCap user with export and
        import rights. The fields are checked against the project's data dictionary before they are saved.
      </Text>
      <Group grow align="flex-start">
        {text('apiUrl', 'API URL', { placeholder: 'https://redcap.example.org/api/', required: true })}
        <PasswordInput
          label="API token"
          description={stored ? 'Stored (never shown). Leave empty to keep it.' : undefined}
          placeholder={stored ? '••••••••••••••••' : '32 hexadecimal characters'}
          value={form.token}
          onChange={(e) => set({ token: e.currentTarget.value })}
          error={errors.token}
          required={!stored}
        />
      </Group>
      <Group grow align="flex-start">
        {text('recordIdField', 'Record id field', { required: true })}
        {text('emailField', 'Email field (optional)')}
      </Group>
      <Group grow align="flex-start">
        {text('instrument', 'Repeating instrument', {
          description: 'The form that receives one instance per participant and day',
          required: true,
        })}
        {text('dateField', 'Date field', {
          description: "The instrument's field for the participant-local date",
          required: true,
        })}
        {text('eventName', 'Event (longitudinal projects)', {
          description: 'Unique event name, e.g. daily_arm_1',
        })}
      </Group>
      <Text fw={500} size="sm">
        Field mapping: the REDCap field of each daily value (empty: not sent)
      </Text>
      <Table withRowBorders={false} verticalSpacing={4} aria-label="Field mapping">
        <Table.Tbody>
          {REDCAP_METRICS.map((metric) => (
            <Table.Tr key={metric}>
              <Table.Td w="45%">
                <Text size="sm">{REDCAP_METRIC_LABELS[metric]}</Text>
              </Table.Td>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={`REDCap field for ${REDCAP_METRIC_LABELS[metric]}`}
                  value={form.fieldMap[metric] ?? ''}
                  onChange={(e) => setMetric(metric, e.currentTarget.value)}
                  error={errors[`fieldMap.${metric}`]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Switch
        label={`Push every night (the last ${REDCAP_NIGHTLY_DAYS} days)`}
        checked={form.pushEnabled}
        onChange={(e) => set({ pushEnabled: e.currentTarget.checked })}
      />
      {tested && (
        <Alert
          color={tested.ok ? 'teal' : 'red'}
          role="status"
          title={tested.ok ? 'Connected' : 'Not connected'}
        >
          {tested.message}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="light" onClick={onTest} loading={test.isPending} disabled={!form.apiUrl && !stored}>
          Test connection
        </Button>
        <Button onClick={onSave} loading={save.isPending}>
          Save settings
        </Button>
      </Group>
    </Stack>
  );
}
