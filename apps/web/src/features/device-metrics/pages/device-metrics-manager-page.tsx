/*
 * Device metrics manager (/DeviceMetricsManager, Sys_Admin; admin §2, §4,
 * §8): pick a team and one of its devices, then decide which metrics the
 * team may store for it. Mode A (the device type has catalog metrics) is a
 * checkbox table; mode B (it has none) an editable settings table, which a
 * catalog device also opens ('Enable and retention'): mode A adds metrics
 * disabled, so enabling them needs the settings table there too. Changing
 * the team resets the device and every edit; changing the device resets the
 * edits (the mode components are keyed by team and device).
 */
import { Alert, List, Loader, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  deviceTypeLabel,
  DEVICE_METRICS_ERRORS as E,
  DEVICE_METRICS_MESSAGES as M,
  SYS_ADMIN_SCOPE_NOTES,
  withReason,
} from '@trialwear/contract';
import { useState } from 'react';
import {
  deviceSettingsKey,
  reasonOf,
  useAllTeams,
  useAvailableMetrics,
  useDeviceSettings,
  useMetricCatalog,
  useTeamDevices,
} from '../api/device-metrics-api';
import { CheckboxMode } from '../components/checkbox-mode';
import { SettingsEditor } from '../components/settings-editor';

export default function DeviceMetricsManagerPage() {
  const teams = useAllTeams();
  const [teamId, setTeamId] = useState<number | null>(null);
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const devices = useTeamDevices(teamId);
  const device = devices.data?.find((d) => d.id === deviceId) ?? null;
  const [error, setError] = useState<string | null>(null);

  const noDevices = teamId !== null && devices.data?.length === 0;
  const fetchError =
    (teams.isError && withReason(E.fetchTeams, reasonOf(teams.error))) ||
    (devices.isError && withReason(E.fetchDevices, reasonOf(devices.error))) ||
    null;

  return (
    <Stack>
      <Title order={2}>Device Metrics Manager</Title>
      <Text size="sm" fw={600}>
        {SYS_ADMIN_SCOPE_NOTES.deviceMetrics}
      </Text>
      <Alert color="blue" title="Configure which device metrics teams can store">
        <List size="sm" type="ordered">
          <List.Item>Select a team.</List.Item>
          <List.Item>Select one of the team's devices.</List.Item>
          <List.Item>Tick (or add) the metrics the team may store, with how long they are kept.</List.Item>
          <List.Item>Save.</List.Item>
        </List>
        <Text size="sm" mt="xs">
          Teams cannot retain data for metrics that a system administrator has not enabled.
        </Text>
      </Alert>
      {(fetchError || error) && (
        <Alert color="red" role="alert" withCloseButton={!!error} onClose={() => setError(null)}>
          {fetchError || error}
        </Alert>
      )}
      <Select
        label="Team"
        placeholder="Select a team"
        searchable
        data={(teams.data ?? []).map((t) => ({
          value: String(t.team_id),
          label: `${t.team_name} (id ${t.team_id})`,
        }))}
        value={teamId === null ? null : String(teamId)}
        onChange={(v) => {
          setTeamId(v === null ? null : Number(v));
          setDeviceId(null);
          setError(null);
        }}
        maw={420}
      />
      <Select
        label="Device"
        placeholder={noDevices ? M.noDevices : 'Select a device'}
        disabled={teamId === null || noDevices}
        data={(devices.data ?? []).map((d) => ({
          value: String(d.id),
          label: `${d.device_name} (${deviceTypeLabel(d.device_type)})`,
        }))}
        value={deviceId === null ? null : String(deviceId)}
        onChange={(v) => {
          setDeviceId(v === null ? null : Number(v));
          setError(null);
        }}
        maw={420}
      />
      {noDevices && <Text c="dimmed">{M.noDevices}</Text>}
      {teamId !== null && device && (
        <DeviceMetrics
          key={`${teamId}:${device.id}`}
          teamId={teamId}
          deviceId={device.id}
          deviceType={device.device_type}
          onError={setError}
        />
      )}
    </Stack>
  );
}

function DeviceMetrics(props: {
  teamId: number;
  deviceId: number;
  deviceType: string;
  onError: (message: string | null) => void;
}) {
  const qc = useQueryClient();
  const available = useAvailableMetrics(props.teamId, props.deviceId, props.deviceType);
  const settings = useDeviceSettings(props.teamId, props.deviceId);
  const noCatalogMetrics = available.data !== undefined && available.data.length === 0;
  // Mode A ticks metrics in (disabled, default retention); enabling them and their
  // retention is done in the settings table, which a catalog device opens on demand.
  const [view, setView] = useState<'select' | 'edit'>('select');
  const modeB = noCatalogMetrics || view === 'edit';
  const catalog = useMetricCatalog();
  const reload = () => qc.invalidateQueries({ queryKey: deviceSettingsKey(props.teamId, props.deviceId) });

  if (available.isError)
    return <Alert color="red">{withReason(E.fetchMetrics, reasonOf(available.error))}</Alert>;
  if (settings.isError)
    return <Alert color="red">{withReason(E.fetchSettings, reasonOf(settings.error))}</Alert>;
  if (modeB && catalog.isError)
    return <Alert color="red">{withReason(E.fetchMetrics, reasonOf(catalog.error))}</Alert>;
  if (!available.data || !settings.data || (modeB && !catalog.data)) return <Loader size="sm" />;

  const switcher = !noCatalogMetrics && (
    <SegmentedControl
      w={360}
      value={view}
      onChange={(v) => setView(v as 'select' | 'edit')}
      data={[
        { value: 'select', label: 'Select metrics' },
        { value: 'edit', label: 'Enable and retention' },
      ]}
    />
  );
  return modeB ? (
    <>
      {switcher}
      <SettingsEditor
        teamId={props.teamId}
        deviceId={props.deviceId}
        catalog={noCatalogMetrics ? (catalog.data ?? []) : available.data}
        saved={settings.data}
        onSaved={reload}
        onError={props.onError}
      />
    </>
  ) : (
    <>
      {switcher}
      <CheckboxMode
        teamId={props.teamId}
        deviceId={props.deviceId}
        catalog={available.data}
        saved={settings.data}
        onSaved={reload}
        onError={props.onError}
      />
    </>
  );
}
