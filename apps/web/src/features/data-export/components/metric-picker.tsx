/*
 * The export form's metric picker: the chosen device's metrics the team may
 * export, as checkboxes grouped by category, with "Select all" and "Clear".
 */
import { Anchor, Checkbox, SimpleGrid, Stack, Text } from '@mantine/core';
import { type BatchExportBody, type ExportMetric, roleAllows, STAFF_ROUTES } from '@trialwear/contract';
import { type Control, Controller } from 'react-hook-form';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import type { ExportFormValues } from './export-form';
import { SelectAllClear } from './select-all-clear';

/** 'Calories burned (kcal)'; the unit is left out where it only repeats the name ('Steps'). */
const metricLabel = (m: ExportMetric) =>
  m.units && m.units.toLowerCase() !== m.metric_name.toLowerCase()
    ? `${m.metric_name} (${m.units})`
    : m.metric_name;

/**
 * A device the team stores nothing of: who does what, with links to the pages
 * the signed-in user may open (the routes' own role lists).
 */
function NothingStored() {
  const { session } = useSession();
  const role = session.kind === 'authorized' ? session.user.role : null;
  const manager = roleAllows(role, STAFF_ROUTES['/DeviceMetricsManager']!) ? (
    <Anchor component={Link} to="/DeviceMetricsManager" size="sm">
      Device Metrics Manager
    </Anchor>
  ) : (
    'Device Metrics Manager'
  );
  const storage = roleAllows(role, STAFF_ROUTES['/TeamDataRetention']!) ? (
    <Anchor component={Link} to="/TeamDataRetention" size="sm">
      Data Storage &amp; Retention
    </Anchor>
  ) : (
    'Data Storage & Retention'
  );
  return (
    <span data-testid="nothing-stored">
      Your team stores no metric of this device. To export its data, a system administrator enables its
      metrics for your team in {manager}, then an Admin chooses the metrics to store in {storage}; the
      background sync then stores them.
    </span>
  );
}

/** Metrics grouped by category, in the order the server lists them. */
function byCategory(metrics: ExportMetric[]): Array<[string, ExportMetric[]]> {
  const groups = new Map<string, ExportMetric[]>();
  for (const m of metrics) {
    const key = m.category ?? 'Other';
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups];
}

export function MetricPicker({
  control,
  deviceChosen,
  metrics,
  error,
}: {
  control: Control<ExportFormValues, unknown, BatchExportBody>;
  deviceChosen: boolean;
  metrics: { data?: ExportMetric[]; isSuccess: boolean };
  error?: string;
}) {
  const metricList = metrics.data ?? [];
  return (
    <Controller
      control={control}
      name="metrics"
      render={({ field }) => (
        <Checkbox.Group
          label="Metrics"
          withAsterisk
          description={
            !deviceChosen ? (
              'Select a device to see its metrics.'
            ) : metrics.isSuccess && metricList.length === 0 ? (
              <NothingStored />
            ) : metrics.isSuccess ? (
              `${field.value.length} of ${metricList.length} selected`
            ) : undefined
          }
          value={field.value}
          onChange={field.onChange}
          error={error}
        >
          {metricList.length > 0 && (
            <Stack gap="xs" mt="xs">
              {metricList.length > 1 && (
                <SelectAllClear
                  what="metrics"
                  anySelected={field.value.length > 0}
                  onSelectAll={() => field.onChange(metricList.map((m) => m.metric_key))}
                  onClear={() => field.onChange([])}
                />
              )}
              {byCategory(metricList).map(([category, list]) => (
                <div key={category}>
                  <Text size="sm" fw={500} c="dimmed" mb={4} tt="capitalize">
                    {category}
                  </Text>
                  <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" verticalSpacing={6}>
                    {list.map((m) => (
                      <Checkbox
                        key={m.metric_key}
                        ref={m.metric_key === metricList[0]?.metric_key ? field.ref : undefined}
                        value={m.metric_key}
                        label={metricLabel(m)}
                      />
                    ))}
                  </SimpleGrid>
                </div>
              ))}
            </Stack>
          )}
        </Checkbox.Group>
      )}
    />
  );
}
