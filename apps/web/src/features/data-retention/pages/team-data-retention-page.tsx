/*
 * Data Storage & Retention Settings (/TeamDataRetention; Sys_Admin, Admin;
 * admin §2, §4): which of the metrics a Sys_Admin enabled for the team's
 * devices the team stores. Always the signed-in user's team. Selections
 * start from what is stored; Save sends one add per newly enabled metric and
 * one remove per newly disabled one, reloads, and says 'Changes saved' for 3 s.
 */
import { Alert, Button, Checkbox, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  deviceTypeLabel,
  enabledCountText,
  DATA_RETENTION_MESSAGES as M,
  retentionText,
  type StorageDevice,
  TIMINGS,
} from '@trialwear/contract';
import { useEffect, useMemo, useState } from 'react';
import { useSession } from '../../../lib/session/session-context';
import {
  disableStorageMetric,
  enableStorageMetric,
  useStorableMetrics,
  useStorageDevices,
  useStorageSelections,
  useTeamRetention,
} from '../api/data-retention-api';

const deviceLabel = (d: StorageDevice) => `${d.device_name} (${deviceTypeLabel(d.device_type)})`;

export default function TeamDataRetentionPage() {
  const { session } = useSession();
  const teamId = session.kind === 'authorized' ? (session.user.team_id ?? 0) : 0;
  return <RetentionSettings key={teamId} teamId={teamId} />;
}

function RetentionSettings({ teamId }: { teamId: number }) {
  const qc = useQueryClient();
  const devices = useStorageDevices(teamId);
  const retention = useTeamRetention(teamId);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const device = devices.data?.find((d) => String(d.team_supported_device_id) === deviceId) ?? null;
  const deviceType = device?.device_type ?? null;
  const metrics = useStorableMetrics(teamId, deviceType);
  const selections = useStorageSelections(teamId, deviceType);

  // What is stored now (only the metrics still offered count) and the local choice.
  const stored = useMemo(() => {
    const offered = new Set((metrics.data ?? []).map((m) => m.metric_key));
    return new Set(
      (selections.data ?? [])
        .filter((s) => s.is_enabled && offered.has(s.metric_key))
        .map((s) => s.metric_key),
    );
  }, [metrics.data, selections.data]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  useEffect(() => setChosen(new Set(stored)), [stored]);

  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [saveError, setSaveError] = useState(false);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), TIMINGS.changesSavedMs);
    return () => clearTimeout(timer);
  }, [saved]);

  const list = metrics.data ?? [];
  const toEnable = list.filter((m) => chosen.has(m.metric_key) && !stored.has(m.metric_key));
  const toDisable = list.filter((m) => !chosen.has(m.metric_key) && stored.has(m.metric_key));
  const dirty = toEnable.length + toDisable.length > 0;
  const allChecked = list.length > 0 && list.every((m) => chosen.has(m.metric_key));
  const someChecked = list.some((m) => chosen.has(m.metric_key));

  const toggle = (key: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  const save = async () => {
    if (!deviceType) return;
    setSaving(true);
    setSaveError(false);
    try {
      for (const m of toEnable) await enableStorageMetric(teamId, deviceType, m);
      for (const m of toDisable) await disableStorageMetric(teamId, deviceType, m.metric_key);
      setSaved(true);
    } catch {
      setSaveError(true);
    } finally {
      setSaving(false);
      await qc.invalidateQueries({ queryKey: ['storage', teamId, 'selections', deviceType] });
    }
  };

  const errors = [
    devices.isError && M.fetchDevices,
    retention.isError && M.fetchRetention,
    metrics.isError && M.fetchMetrics,
    selections.isError && M.fetchSelections,
    saveError && M.saveChanges,
  ].filter(Boolean) as string[];

  return (
    <Stack>
      <Title order={2}>{M.title}</Title>
      {errors.map((e) => (
        <Alert key={e} color="red" role="alert">
          {e}
        </Alert>
      ))}
      <Paper withBorder p="md">
        <Text fw={500}>{retention.data ? retentionText(retention.data.retention_days) : ' '}</Text>
        <Text size="sm" c="dimmed">
          The retention period is set for your team by the portal's administrators. {M.retentionRule}
        </Text>
      </Paper>
      {devices.data && devices.data.length === 0 ? (
        <Text>{M.noDevices}</Text>
      ) : (
        <Select
          label="Device"
          placeholder="Select a device"
          data={(devices.data ?? []).map((d) => ({
            value: String(d.team_supported_device_id),
            label: deviceLabel(d),
          }))}
          value={deviceId}
          onChange={setDeviceId}
          maw={420}
        />
      )}
      {deviceType && (
        <>
          <Group justify="space-between">
            <Text size="sm" aria-live="polite">
              {/* What is saved, not the ticks not yet saved (the bar below counts those). */}
              {enabledCountText(list.filter((m) => stored.has(m.metric_key)).length, list.length)}
            </Text>
            {saved && (
              <Text c="teal" fw={500} role="status">
                {M.saved}
              </Text>
            )}
          </Group>
          <Table withTableBorder striped aria-label="Metrics">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all metrics"
                    checked={allChecked}
                    indeterminate={someChecked && !allChecked}
                    disabled={list.length === 0}
                    onChange={() =>
                      setChosen(allChecked ? new Set() : new Set(list.map((m) => m.metric_key)))
                    }
                  />
                </Table.Th>
                <Table.Th>Metric</Table.Th>
                <Table.Th>Category</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>{M.keptFor}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed" ta="center" py="sm">
                      {metrics.isLoading
                        ? 'Loading…'
                        : 'No metrics of this device have been enabled for your team by a system administrator.'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                list.map((m) => (
                  <Table.Tr key={m.metric_key}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Store ${m.metric_name}`}
                        checked={chosen.has(m.metric_key)}
                        onChange={(e) => toggle(m.metric_key, e.currentTarget.checked)}
                      />
                    </Table.Td>
                    <Table.Td>
                      {m.metric_name}
                      {m.units ? <Text span c="dimmed" size="sm">{` (${m.units})`}</Text> : null}
                    </Table.Td>
                    <Table.Td>{m.category ?? ''}</Table.Td>
                    <Table.Td>{m.description ?? ''}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{`${m.retention_days} days`}</Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            {M.disableNote}
          </Text>
          {dirty && (
            <Paper withBorder p="sm" bg="var(--mantine-color-blue-light)" aria-label="Unsaved changes">
              <Group justify="space-between">
                <Text size="sm">
                  {toEnable.length} to enable, {toDisable.length} to disable
                </Text>
                <Group gap="sm">
                  <Button variant="default" onClick={() => setChosen(new Set(stored))} disabled={saving}>
                    {M.discard}
                  </Button>
                  <Button onClick={save} disabled={saving}>
                    {saving ? M.saving : M.save}
                  </Button>
                </Group>
              </Group>
            </Paper>
          )}
        </>
      )}
    </Stack>
  );
}
