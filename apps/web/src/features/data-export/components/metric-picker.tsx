/*
 * The export form's metric picker: the chosen device's metrics the team may
 * export, as checkboxes grouped by category, with "Select all" and "Clear".
 */
import { Checkbox, SimpleGrid, Stack, Text } from '@mantine/core';
import type { BatchExportBody, ExportMetric } from '@trialwear/contract';
import { type Control, Controller } from 'react-hook-form';
import type { ExportFormValues } from './export-form';
import { SelectAllClear } from './select-all-clear';

/** 'Calories burned (kcal)'; the unit is left out where it only repeats the name ('Steps'). */
const metricLabel = (m: ExportMetric) =>
  m.units && m.units.toLowerCase() !== m.metric_name.toLowerCase()
    ? `${m.metric_name} (${m.units})`
    : m.metric_name;

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
            !deviceChosen
              ? 'Select a device to see its metrics.'
              : metrics.isSuccess && metricList.length === 0
                ? 'Your team stores no metric of this device.'
                : metrics.isSuccess
                  ? `${field.value.length} of ${metricList.length} selected`
                  : undefined
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
