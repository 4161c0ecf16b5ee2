/*
 * Batch data export (/DataExport; Sys_Admin, Admin, User; admin §2): the
 * request form and, below it, the team's latest export jobs. A request
 * answers with the success modal or the 'Export Failed' modal; the new job
 * shows in the panel at once and then moves through its states as the panel
 * polls.
 */
import { Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type BatchExportBody, EXPORT_LIMITS, EXPORT_MESSAGES } from '@trialwear/contract';
import { localDate, runtimeZone } from '@trialwear/zone';
import { useState } from 'react';
import { exportKeys, requestExport, useExportDevices, useExportTrials } from '../api/data-export-api';
import { ExportForm } from '../components/export-form';
import { JobsPanel } from '../components/jobs-panel';
import { type ExportOutcome, ResultModal } from '../components/result-modal';
import { exportFailureText } from '../export-format';

export default function DataExportPage() {
  const qc = useQueryClient();
  const [today] = useState(() => localDate(runtimeZone(), new Date()));
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);
  const trials = useExportTrials();
  const devices = useExportDevices();

  const submit = async (body: BatchExportBody) => {
    try {
      const res = await requestExport(body);
      setOutcome(
        res.success
          ? { ok: true, text: res.message || EXPORT_MESSAGES.success }
          : { ok: false, text: res.error ?? res.message },
      );
    } catch (err) {
      setOutcome({ ok: false, text: exportFailureText(err) });
    } finally {
      await qc.invalidateQueries({ queryKey: exportKeys.jobs });
    }
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Batch Data Export</Title>
        <Text c="dimmed" size="sm">
          Device data of chosen participants as CSV, Parquet, FHIR or Open mHealth files in a ZIP. The export
          runs in the background and you get an email when it is ready; files are kept{' '}
          {EXPORT_LIMITS.filesKeptDays} days.
        </Text>
        <Text c="dimmed" size="sm" data-testid="export-units">
          In CSV and Parquet, values are in the provider's units (distance in km, weight in kg); the columns
          display_value and display_unit give distance and weight as these pages show them (mi, Lbs).
        </Text>
      </div>
      <ExportForm today={today} onSubmit={submit} />
      <JobsPanel trials={trials.data ?? []} devices={devices.data ?? []} />
      <ResultModal outcome={outcome} onClose={() => setOutcome(null)} />
    </Stack>
  );
}
