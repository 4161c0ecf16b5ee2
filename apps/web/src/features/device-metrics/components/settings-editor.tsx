/*
 * Mode B (device type without catalog metrics): the device's settings as an
 * editable table. Row edits, single and bulk deletes and bulk Enable/Disable
 * each PUT the whole list (it replaces the prior one) and reload; a row being
 * edited or added is local until saved (NEW marks added rows), and Cancel
 * discards every local edit (admin §2, §4, §5).
 */
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Switch,
  Table,
  Text,
} from '@mantine/core';
import {
  type AvailableMetric,
  DATA_RETENTION_MESSAGES,
  type DeviceMetricSetting,
  type DeviceMetricSettingInput,
  DEVICE_METRICS_ERRORS as E,
  DEVICE_METRICS_MESSAGES as M,
  RETENTION,
  withReason,
} from '@trialwear/contract';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { putDeviceSettings, reasonOf } from '../api/device-metrics-api';
import { MetricPicker } from './metric-picker';

interface Draft {
  /** The saved row it edits; undefined for a NEW row. */
  id?: number;
  metric_key: string;
  metric_name: string;
  metric_units: string | null;
  is_enabled: boolean;
  retention_days: number | '';
  errors?: { name?: string; retention?: string };
}

const draftOf = (s: DeviceMetricSetting): Draft => ({ ...s });
const inputOf = (s: DeviceMetricSetting | Draft): DeviceMetricSettingInput => ({
  metric_key: s.metric_key,
  metric_name: s.metric_name,
  metric_units: s.metric_units,
  is_enabled: s.is_enabled,
  retention_days: s.retention_days === '' ? 0 : s.retention_days,
});

function validate(d: Draft): Draft['errors'] {
  const errors: NonNullable<Draft['errors']> = {};
  if (!d.metric_key || !d.metric_name.trim()) errors.name = M.nameRequired;
  if (d.retention_days === '' || d.retention_days < RETENTION.minDays) errors.retention = M.retentionMin;
  return Object.keys(errors).length ? errors : undefined;
}

let newSeq = 0;

export function SettingsEditor(props: {
  teamId: number;
  deviceId: number;
  catalog: AvailableMetric[];
  saved: DeviceMetricSetting[];
  onSaved: () => Promise<unknown>;
  onError: (message: string | null) => void;
}) {
  const { saved } = props;
  // Local edits by row key: `s<id>` edits a saved row, `n<seq>` is a NEW row.
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<{ ids: number[]; single: boolean } | null>(null);
  const dirty = Object.keys(drafts).length > 0;
  const newKeys = Object.keys(drafts).filter((k) => k.startsWith('n'));

  const usedBesides = (rowKey: string) =>
    new Set([
      ...saved
        .filter((s) => `s${s.id}` !== rowKey)
        .map((s) => drafts[`s${s.id}`]?.metric_key ?? s.metric_key),
      ...Object.entries(drafts)
        .filter(([k]) => k !== rowKey && k.startsWith('n'))
        .map(([, d]) => d.metric_key),
    ]);

  const setDraft = (key: string, change: Partial<Draft>) =>
    setDrafts((prev) => ({ ...prev, [key]: { ...prev[key]!, ...change, errors: undefined } }));
  const dropDrafts = (keys: string[]) =>
    setDrafts((prev) => Object.fromEntries(Object.entries(prev).filter(([k]) => !keys.includes(k))));

  /** PUT the saved list with these changes; on success the drafts in `done` are dropped and the list reloads. */
  const persist = async (
    list: DeviceMetricSettingInput[],
    failure: string,
    done: string[] = [],
  ): Promise<boolean> => {
    setBusy(true);
    props.onError(null);
    try {
      await putDeviceSettings(props.teamId, props.deviceId, list);
      // Reload first, so that the saved rows never flash their old values.
      await props.onSaved();
      dropDrafts(done);
      setSelected(new Set());
      return true;
    } catch (err) {
      props.onError(withReason(failure, reasonOf(err)));
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** The saved list with the given drafts applied (edited rows in place, NEW rows at the end). */
  const applied = (keys: string[]) => [
    ...saved.map((s) => (keys.includes(`s${s.id}`) ? inputOf(drafts[`s${s.id}`]!) : inputOf(s))),
    ...keys.filter((k) => k.startsWith('n')).map((k) => inputOf(drafts[k]!)),
  ];

  const saveRows = (keys: string[]) => {
    let invalid = false;
    const next = { ...drafts };
    for (const k of keys) {
      const errors = validate(next[k]!);
      if (errors) invalid = true;
      next[k] = { ...next[k]!, errors };
    }
    setDrafts(next);
    if (invalid) {
      props.onError(M.fixErrors);
      return;
    }
    void persist(applied(keys), E.saveChanges, keys);
  };

  const addRow = () => {
    newSeq += 1;
    setDrafts((prev) => ({
      ...prev,
      [`n${newSeq}`]: {
        metric_key: '',
        metric_name: '',
        metric_units: null,
        is_enabled: true,
        retention_days: RETENTION.defaultDays,
      },
    }));
  };

  const bulkEnable = (on: boolean) => {
    if (!selected.size) return props.onError(M.selectToModify);
    void persist(
      saved.map((s) => inputOf(selected.has(s.id) ? { ...s, is_enabled: on } : s)),
      E.enableDisable,
    );
  };

  const askDelete = (ids: number[], single: boolean) => {
    if (!ids.length) return props.onError(M.selectToDelete);
    props.onError(null);
    setConfirm({ ids, single });
  };
  const doDelete = async () => {
    if (!confirm) return;
    const ids = new Set(confirm.ids);
    await persist(
      saved.filter((s) => !ids.has(s.id)).map(inputOf),
      confirm.single ? E.deleteSetting : E.deleteSettings,
      confirm.ids.map((id) => `s${id}`),
    );
    setConfirm(null);
  };

  const allSelected = saved.length > 0 && saved.every((s) => selected.has(s.id));
  const rowKeys = [...saved.map((s) => `s${s.id}`), ...newKeys];

  return (
    <>
      <Group justify="space-between">
        <Group gap="xs">
          <Button size="xs" onClick={addRow} disabled={busy}>
            Add metric
          </Button>
          <Button size="xs" variant="light" onClick={() => bulkEnable(true)} disabled={busy}>
            Enable
          </Button>
          <Button size="xs" variant="light" onClick={() => bulkEnable(false)} disabled={busy}>
            Disable
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() => askDelete([...selected], false)}
            disabled={busy}
          >
            Delete
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {selected.size} selected · {saved.length} settings
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {DATA_RETENTION_MESSAGES.retentionRule}
      </Text>
      <Table withTableBorder striped aria-label="Metric settings">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all settings"
                checked={allSelected}
                indeterminate={selected.size > 0 && !allSelected}
                disabled={!saved.length}
                onChange={() => setSelected(allSelected ? new Set() : new Set(saved.map((s) => s.id)))}
              />
            </Table.Th>
            <Table.Th>Metric name</Table.Th>
            <Table.Th>Units</Table.Th>
            <Table.Th>Enabled</Table.Th>
            <Table.Th>Retention days</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rowKeys.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={6}>
                <Text c="dimmed" ta="center" py="sm">
                  No metric settings yet: add one.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rowKeys.map((key) => {
            const savedRow = saved.find((s) => `s${s.id}` === key);
            const draft = drafts[key];
            if (!draft && savedRow)
              return (
                <Table.Tr key={key} data-testid="setting-row">
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${savedRow.metric_name}`}
                      checked={selected.has(savedRow.id)}
                      onChange={() =>
                        setSelected((prev) => {
                          const next = new Set(prev);
                          if (next.has(savedRow.id)) next.delete(savedRow.id);
                          else next.add(savedRow.id);
                          return next;
                        })
                      }
                    />
                  </Table.Td>
                  <Table.Td>{savedRow.metric_name}</Table.Td>
                  <Table.Td>{savedRow.metric_units ?? ''}</Table.Td>
                  <Table.Td>
                    <Badge color={savedRow.is_enabled ? 'teal' : 'gray'} variant="light">
                      {savedRow.is_enabled ? 'Yes' : 'No'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{savedRow.retention_days}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        aria-label={`Edit ${savedRow.metric_name}`}
                        onClick={() => setDrafts((prev) => ({ ...prev, [key]: draftOf(savedRow) }))}
                        disabled={busy}
                      >
                        Edit
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${savedRow.metric_name}`}
                        onClick={() => askDelete([savedRow.id], true)}
                        disabled={busy}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            if (!draft) return null;
            return (
              <Table.Tr key={key} data-testid="setting-row-edit">
                <Table.Td />
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {!savedRow && (
                      <Badge size="sm" color="orange" variant="filled">
                        NEW
                      </Badge>
                    )}
                    <MetricPicker
                      catalog={props.catalog}
                      usedKeys={usedBesides(key)}
                      value={draft.metric_key}
                      error={draft.errors?.name}
                      onPick={(m) =>
                        setDraft(key, {
                          metric_key: m?.metric_key ?? '',
                          metric_name: m?.metric_name ?? '',
                          metric_units: m?.units ?? null,
                        })
                      }
                    />
                  </Group>
                </Table.Td>
                <Table.Td>{draft.metric_units ?? ''}</Table.Td>
                <Table.Td>
                  <Switch
                    aria-label="Enabled"
                    checked={draft.is_enabled}
                    onChange={(e) => setDraft(key, { is_enabled: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label="Retention days"
                    min={RETENTION.minDays}
                    clampBehavior="none"
                    allowDecimal={false}
                    value={draft.retention_days}
                    error={draft.errors?.retention}
                    onChange={(v) => setDraft(key, { retention_days: v === '' ? '' : Number(v) })}
                    w={110}
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" onClick={() => saveRows([key])} loading={busy}>
                      Save
                    </Button>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label="Cancel edit"
                      onClick={() => dropDrafts([key])}
                    >
                      ✕
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {dirty && (
        <Paper withBorder p="sm" bg="var(--mantine-color-blue-light)" aria-label="Unsaved changes">
          <Group justify="space-between">
            <Text size="sm">
              {Object.keys(drafts).length - newKeys.length} edited · {newKeys.length} new
            </Text>
            <Group gap="sm">
              <Button variant="default" onClick={() => setDrafts({})} disabled={busy}>
                Cancel
              </Button>
              <Button onClick={() => saveRows(Object.keys(drafts))} loading={busy}>
                Save all
              </Button>
            </Group>
          </Group>
        </Paper>
      )}
      <ConfirmModal
        opened={confirm !== null}
        title={confirm?.single ? 'Delete Metric Setting' : 'Delete Multiple Metric Settings'}
        confirmLabel="Delete"
        loading={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={doDelete}
      >
        {confirm?.single
          ? 'Delete this metric setting? This cannot be undone.'
          : `Delete the ${confirm?.ids.length ?? 0} selected metric setting${confirm?.ids.length === 1 ? '' : 's'}? This cannot be undone.`}
      </ConfirmModal>
    </>
  );
}
