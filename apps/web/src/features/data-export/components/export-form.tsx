/*
 * The export request form (admin §2, §5), in the spec's order: trial,
 * device, participants (of the trial with the device), start and end date,
 * metrics (of the device), export mode, then ours: file format, date shift
 * (deidentify-field.tsx), and the file name. A new trial empties the
 * participants; a new device empties the participants and the metrics.
 * Validation runs on submit with the contract's schema and messages; each
 * message sits under its field, announced and tied to it by Mantine
 * (aria-describedby, aria-invalid). The participant and metric pickers are
 * their own components (participant-picker.tsx, metric-picker.tsx).
 */
import { Alert, Button, Card, Group, Radio, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  type BatchExportBody,
  EXPORT_FORMAT_LABELS,
  EXPORT_FORMATS,
  EXPORT_LIMITS,
  EXPORT_MESSAGES,
  type ExportFormat,
  type ExportMode,
} from '@trialwear/contract';
import { useId, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import {
  useExportDevices,
  useExportMetrics,
  useExportParticipants,
  useExportTrials,
} from '../api/data-export-api';
import { EMPTY_EXPORT_FORM, type ExportFormValues, exportResolver } from '../export-form-resolver';
import { daysBefore } from '../export-format';
import { DeidentifyField } from './deidentify-field';
import { MetricPicker } from './metric-picker';
import { ParticipantPicker } from './participant-picker';

export type { ExportFormValues };

/** The form's order: the first field in error takes the focus after a refused submit. */
const FIELD_ORDER: ReadonlyArray<keyof ExportFormValues> = [
  'trialId',
  'deviceId',
  'participantIds',
  'startDate',
  'endDate',
  'metrics',
  'fileName',
];

const MODE_LABELS: Record<ExportMode, { label: string; description: string }> = {
  'separate-tabs': { label: 'Separate tabs', description: 'One CSV file per metric' },
  'single-tab': { label: 'Single tab', description: 'All metrics in one CSV file' },
};

/** The data files' format (ours, issue #24): CSV by default; Parquet for analysis tools. */
const FORMAT_DESCRIPTIONS: Record<ExportFormat, string> = {
  csv: 'Opens in any spreadsheet or statistics tool',
  parquet: 'Typed columns for pandas, R arrow or DuckDB; one file per metric',
  fhir: 'Observations with LOINC codes for a FHIR server; one file per resource type',
  omh: 'Open mHealth / IEEE 1752 data points; one file per schema (steps, heart rate, blood pressure, weight, glucose, sleep)',
};

export function ExportForm({
  today,
  onSubmit,
}: {
  /** The browser's local date, YYYY-MM-DD. */
  today: string;
  onSubmit: (body: BatchExportBody) => Promise<void>;
}) {
  const resolver = useMemo(() => exportResolver(today), [today]);
  const { control, register, handleSubmit, setValue, setFocus, watch, formState } = useForm<
    ExportFormValues,
    unknown,
    BatchExportBody
  >({ resolver, defaultValues: EMPTY_EXPORT_FORM, shouldFocusError: false });
  const trialId = watch('trialId');
  const deviceId = watch('deviceId');
  const format = watch('format');
  // Parquet and FHIR files are not split by the export mode (one file per metric, per resource type).
  const modeFixed = format !== 'csv';

  const trials = useExportTrials();
  const devices = useExportDevices();
  const participants = useExportParticipants(trialId, deviceId);
  const metrics = useExportMetrics(deviceId);

  const loadErrors = [
    trials.isError && EXPORT_MESSAGES.loadTrials,
    devices.isError && EXPORT_MESSAGES.loadDevices,
    participants.isError && EXPORT_MESSAGES.loadParticipants,
    metrics.isError && EXPORT_MESSAGES.loadMetrics,
  ].filter(Boolean) as string[];

  const earliest = daysBefore(today, EXPORT_LIMITS.maxRangeDays);
  const e = formState.errors;
  const titleId = useId();

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Text id={titleId} fw={600} size="lg" mb="sm">
        New export
      </Text>
      {loadErrors.map((msg) => (
        <Alert key={msg} color="red" role="alert" mb="sm">
          {msg}
        </Alert>
      ))}
      <form
        onSubmit={handleSubmit(onSubmit, (errors) => {
          const first = FIELD_ORDER.find((name) => errors[name]);
          if (first) setFocus(first);
        })}
        noValidate
        aria-label="Export request"
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={control}
              name="trialId"
              render={({ field }) => (
                <Select
                  ref={field.ref}
                  label="Trial"
                  withAsterisk
                  placeholder={trials.isLoading ? 'Loading trials…' : 'Select a trial'}
                  nothingFoundMessage="No trial found"
                  data={(trials.data ?? []).map((t) => ({
                    value: String(t.trialId),
                    label: `#${t.trialNumber} - ${t.trialName}`,
                  }))}
                  value={field.value === null ? null : String(field.value)}
                  onChange={(v) => {
                    const next = v ? Number(v) : null;
                    if (next !== field.value) setValue('participantIds', []);
                    field.onChange(next);
                  }}
                  onBlur={field.onBlur}
                  error={e.trialId?.message}
                />
              )}
            />
            <Controller
              control={control}
              name="deviceId"
              render={({ field }) => (
                <Select
                  ref={field.ref}
                  label="Device"
                  withAsterisk
                  placeholder={devices.isLoading ? 'Loading devices…' : 'Select a device'}
                  nothingFoundMessage="Your team has no supported device"
                  data={(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.friendlyName }))}
                  value={field.value === null ? null : String(field.value)}
                  onChange={(v) => {
                    const next = v ? Number(v) : null;
                    if (next !== field.value) {
                      setValue('participantIds', []);
                      setValue('metrics', []);
                    }
                    field.onChange(next);
                  }}
                  onBlur={field.onBlur}
                  error={e.deviceId?.message}
                />
              )}
            />
          </SimpleGrid>

          <ParticipantPicker
            control={control}
            ready={trialId !== null && deviceId !== null}
            participants={participants}
            error={e.participantIds?.message}
          />

          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="date"
              label="Start date"
              withAsterisk
              min={earliest}
              max={today}
              error={e.startDate?.message}
              {...register('startDate')}
            />
            <TextInput
              type="date"
              label="End date"
              withAsterisk
              max={today}
              error={e.endDate?.message}
              {...register('endDate')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={-8}>
            Participants' local dates, both included; at most one year, starting no earlier than {earliest}.
          </Text>

          <MetricPicker
            control={control}
            deviceChosen={deviceId !== null}
            metrics={metrics}
            error={e.metrics?.message}
          />

          <Controller
            control={control}
            name="exportMode"
            render={({ field }) => (
              <Radio.Group
                label="Export mode"
                description={
                  format === 'parquet'
                    ? 'Parquet exports are one file per metric.'
                    : format === 'fhir'
                      ? 'FHIR exports are one file per resource type.'
                      : format === 'omh'
                        ? 'Open mHealth exports are one file per schema.'
                        : undefined
                }
                value={field.value}
                onChange={(v) => field.onChange(v as ExportMode)}
              >
                <Group mt="xs" gap="xl">
                  {(Object.keys(MODE_LABELS) as ExportMode[]).map((mode) => (
                    <Radio
                      key={mode}
                      value={mode}
                      disabled={modeFixed}
                      label={MODE_LABELS[mode].label}
                      description={MODE_LABELS[mode].description}
                    />
                  ))}
                </Group>
              </Radio.Group>
            )}
          />

          <Controller
            control={control}
            name="format"
            render={({ field }) => (
              <Radio.Group
                label="File format"
                value={field.value}
                onChange={(v) => field.onChange(v as ExportFormat)}
                error={e.format?.message}
              >
                {/* Four formats: two by two (a row of four wraps unevenly). */}
                <SimpleGrid mt="xs" cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
                  {EXPORT_FORMATS.map((format) => (
                    <Radio
                      key={format}
                      value={format}
                      label={EXPORT_FORMAT_LABELS[format]}
                      description={FORMAT_DESCRIPTIONS[format]}
                    />
                  ))}
                </SimpleGrid>
              </Radio.Group>
            )}
          />

          <DeidentifyField
            control={control}
            setValue={setValue}
            trial={trials.data?.find((t) => t.trialId === trialId)}
          />

          <TextInput
            label="File name"
            withAsterisk
            placeholder="e.g. sleep-study-november"
            description="The download is named after it: <file name>.zip"
            maxLength={EXPORT_LIMITS.fileNameMax}
            error={e.fileName?.message}
            {...register('fileName')}
          />

          <Group justify="flex-end">
            <Button type="submit" loading={formState.isSubmitting}>
              Export
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
