/*
 * Mode B's metric name: a searchable dropdown of the catalog grouped by
 * device type (in words), without the metrics already used on this device.
 * It opens under its input and closes on an outside click.
 */
import { Select } from '@mantine/core';
import { type AvailableMetric, deviceTypeLabel } from '@trialwear/contract';
import { useMemo } from 'react';

export function MetricPicker(props: {
  catalog: AvailableMetric[];
  /** Keys used by the device's other rows. */
  usedKeys: ReadonlySet<string>;
  value: string;
  error?: string;
  onPick: (metric: AvailableMetric | null) => void;
}) {
  const { catalog, usedKeys } = props;
  const data = useMemo(() => {
    // A key shared by two types (weight on both scales) is offered once, in its first group:
    // Select needs unique values.
    const groups = new Map<string, Array<{ value: string; label: string }>>();
    const seen = new Set<string>();
    for (const m of catalog) {
      if (usedKeys.has(m.metric_key) || seen.has(m.metric_key)) continue;
      seen.add(m.metric_key);
      const group = deviceTypeLabel(m.device_type);
      groups.set(group, [...(groups.get(group) ?? []), { value: m.metric_key, label: m.metric_name }]);
    }
    return [...groups].map(([group, items]) => ({ group, items }));
  }, [catalog, usedKeys]);

  return (
    <Select
      aria-label="Metric name"
      placeholder="Search metrics"
      searchable
      nothingFoundMessage="No metric left to add"
      data={data}
      value={props.value || null}
      error={props.error}
      // Under its input always (the spec's place), also near the window's bottom: no flipping above.
      comboboxProps={{
        position: 'bottom-start',
        withinPortal: true,
        middlewares: { flip: false, shift: true },
      }}
      onChange={(key) => props.onPick(catalog.find((m) => m.metric_key === key) ?? null)}
      miw={220}
    />
  );
}
