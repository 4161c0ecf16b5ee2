/*
 * The participant columns shared by the trial page and /ParticipantsPage:
 * table columns, export columns and the user-hideable ones, each without
 * the fields the team hides (the server leaves those out as well).
 */
import { Badge, Group, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import {
  type HiddenField,
  type ListedParticipant,
  PROVIDER_BRAND,
  providerOfLink,
  SYNC_STATUS_TEXT,
} from '@trialwear/contract';
import type { ExportColumn } from '../../../components/data-table/export-table';
import { SyncStatusBadge } from './sync-status';

/** The brand of a linked device; a link name the contract does not know is shown as sent. */
function deviceLabel(link: string): string {
  const provider = providerOfLink(link);
  return provider ? PROVIDER_BRAND[provider] : link;
}

export function participantColumns<T extends ListedParticipant>(
  hidden: HiddenField[],
): ColumnDef<T, unknown>[] {
  const cols: ColumnDef<T, unknown>[] = [
    { id: 'id', header: 'Id', accessorKey: 'id' },
    { id: 'participant_code', header: 'Participant Code', accessorFn: (p) => p.participant_code ?? '' },
  ];
  if (!hidden.includes('email'))
    cols.push({ id: 'email', header: 'Email', accessorFn: (p) => p.email ?? '' });
  cols.push(
    { id: 'gender', header: 'Gender', accessorKey: 'gender' },
    { id: 'age', header: 'Age', accessorFn: (p) => p.age ?? '', sortUndefined: 'last' },
  );
  if (!hidden.includes('notes'))
    cols.push({ id: 'notes', header: 'Notes', accessorFn: (p) => p.notes ?? '', enableSorting: false });
  cols.push({
    id: 'authorized_devices',
    header: 'Authorized Devices',
    accessorFn: (p) => p.authorized_devices.map((d) => deviceLabel(d)).join(', '),
    cell: ({ row }) => (
      <Group gap={4}>
        {row.original.authorized_devices.length === 0 ? (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ) : (
          row.original.authorized_devices.map((d) => (
            <Badge key={d} size="sm" variant="light">
              {deviceLabel(d)}
            </Badge>
          ))
        )}
      </Group>
    ),
  });
  cols.push({
    id: 'sync',
    header: 'Data Sync',
    // Sorted and filtered by its text, so "No data for 3 days" rows can be found.
    accessorFn: (p) => (p.sync ? SYNC_STATUS_TEXT[p.sync.status] : ''),
    cell: ({ row }) => <SyncStatusBadge sync={row.original.sync} />,
  });
  return cols;
}

export function participantExportColumns(hidden: HiddenField[]): ExportColumn[] {
  const get = (row: unknown) => row as ListedParticipant;
  return [
    { header: 'Id', value: (r) => get(r).id },
    { header: 'Participant Code', value: (r) => get(r).participant_code },
    ...(hidden.includes('email') ? [] : [{ header: 'Email', value: (r: unknown) => get(r).email }]),
    { id: 'gender', header: 'Gender', value: (r) => get(r).gender },
    { id: 'age', header: 'Age', value: (r) => get(r).age },
    ...(hidden.includes('notes')
      ? []
      : [{ id: 'notes', header: 'Notes', value: (r: unknown) => get(r).notes }]),
    { header: 'Authorized Devices', value: (r) => get(r).authorized_devices.join(', ') },
    { header: 'Data Sync', value: (r) => (get(r).sync ? SYNC_STATUS_TEXT[get(r).sync.status] : '') },
    { header: 'Last Successful Sync', value: (r) => get(r).sync?.lastSuccessAt ?? '' },
  ];
}

export function hideableParticipantColumns(hidden: HiddenField[]) {
  return [
    { id: 'gender', label: 'Gender' },
    { id: 'age', label: 'Age' },
    ...(hidden.includes('notes') ? [] : [{ id: 'notes', label: 'Notes' }]),
  ];
}
