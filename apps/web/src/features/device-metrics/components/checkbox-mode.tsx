/*
 * Mode A (device type with catalog metrics): tick the metrics the team's
 * device may store. A newly ticked metric joins with is_enabled false and its
 * default retention, an unticked one leaves, the others keep their flag and
 * retention (admin §4); Save PUTs the whole list, reloads and says so for 3 s
 * (with where the new, disabled metrics get enabled).
 */
import { Badge, Button, Checkbox, Group, Paper, Table, Text } from '@mantine/core';
import {
  type AvailableMetric,
  checkboxModeSettings,
  DATA_RETENTION_MESSAGES,
  DEVICE_METRICS_ERRORS,
  type DeviceMetricSetting,
  TIMINGS,
  withReason,
} from '@trialwear/contract';
import { useEffect, useMemo, useState } from 'react';
import { putDeviceSettings, reasonOf } from '../api/device-metrics-api';

export function CheckboxMode(props: {
  teamId: number;
  deviceId: number;
  catalog: AvailableMetric[];
  saved: DeviceMetricSetting[];
  onSaved: () => Promise<unknown>;
  onError: (message: string | null) => void;
}) {
  const { catalog, saved } = props;
  const savedKeys = useMemo(() => new Set(saved.map((s) => s.metric_key)), [saved]);
  const [checked, setChecked] = useState<Set<string>>(savedKeys);
  useEffect(() => setChecked(new Set(savedKeys)), [savedKeys]);
  const [saving, setSaving] = useState(false);
  // After a save: 'Changes saved' for 3 s, and where newly added metrics get enabled.
  const [savedNote, setSavedNote] = useState<string | null>(null);
  useEffect(() => {
    if (!savedNote) return;
    const timer = setTimeout(() => setSavedNote(null), TIMINGS.changesSavedMs);
    return () => clearTimeout(timer);
  }, [savedNote]);

  const plan = checkboxModeSettings(saved, catalog, checked);
  const dirty = plan.added > 0 || plan.removed > 0;
  const selectedCount = catalog.filter((m) => checked.has(m.metric_key)).length;
  const all = catalog.length > 0 && selectedCount === catalog.length;
  const settingOf = (key: string) => saved.find((s) => s.metric_key === key);

  const toggle = (key: string) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const save = async () => {
    setSaving(true);
    props.onError(null);
    try {
      await putDeviceSettings(props.teamId, props.deviceId, plan.settings);
      await props.onSaved();
      setSavedNote(
        plan.added > 0
          ? `${DATA_RETENTION_MESSAGES.saved}. New metrics are added disabled: enable them under “Enable and retention”.`
          : DATA_RETENTION_MESSAGES.saved,
      );
    } catch (err) {
      props.onError(withReason(DEVICE_METRICS_ERRORS.saveSelections, reasonOf(err)));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Table withTableBorder striped aria-label="Available metrics">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all metrics"
                checked={all}
                indeterminate={selectedCount > 0 && !all}
                onChange={() => setChecked(all ? new Set() : new Set(catalog.map((m) => m.metric_key)))}
              />
            </Table.Th>
            <Table.Th>Metric</Table.Th>
            <Table.Th>Units</Table.Th>
            <Table.Th>Enabled</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {catalog.map((m) => {
            const setting = settingOf(m.metric_key);
            return (
              <Table.Tr key={m.metric_key}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${m.metric_name}`}
                    checked={checked.has(m.metric_key)}
                    onChange={() => toggle(m.metric_key)}
                  />
                </Table.Td>
                <Table.Td>
                  {m.metric_name}
                  <Text size="xs" c="dimmed">
                    {m.category}
                  </Text>
                </Table.Td>
                <Table.Td>{m.units ?? ''}</Table.Td>
                <Table.Td>
                  <Badge color={setting?.is_enabled ? 'teal' : 'gray'} variant="light">
                    {setting?.is_enabled ? 'Yes' : 'No'}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Paper
        withBorder
        p="sm"
        aria-label="Save bar"
        bg={dirty ? 'var(--mantine-color-blue-light)' : undefined}
      >
        <Group justify="space-between">
          <Text size="sm">
            {selectedCount} selected · {plan.added} new · {plan.removed} removed
          </Text>
          {savedNote && (
            <Text size="sm" c="teal.9" fw={500} role="status">
              {savedNote}
            </Text>
          )}
          <Group gap="sm">
            <Button
              variant="default"
              disabled={!dirty || saving}
              onClick={() => setChecked(new Set(savedKeys))}
            >
              Cancel
            </Button>
            <Button disabled={!dirty} loading={saving} onClick={save}>
              Save
            </Button>
          </Group>
        </Group>
      </Paper>
    </>
  );
}
