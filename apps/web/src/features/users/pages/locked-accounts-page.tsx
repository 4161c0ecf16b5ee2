/*
 * Locked Accounts (Sys Admin menu; issue #9): the accounts of the Sys_Admin's
 * teams locked now after too many failed attempts, each with an Unlock
 * button (confirmed in a modal). Beside the CLI's unlock-user; a lock also
 * ends by itself, and a password reset lifts it.
 */
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { LOCKOUT_MESSAGES, type LockedUser } from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table/data-table';
import { ApiRequestError } from '../../../lib/api-client';
import { unlockUser, useLockedUsers } from '../api/locked-users-api';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export default function LockedAccountsPage() {
  const qc = useQueryClient();
  const locked = useLockedUsers();
  // The account in the confirmation; it stays set while the modal fades out, so the modal never shows empty.
  const [unlocking, setUnlocking] = useState<LockedUser | null>(null);
  const [confirming, setConfirming] = useState(false);

  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const columns = useMemo<ColumnDef<LockedUser, unknown>[]>(
    () => [
      { id: 'userName', header: 'Username', accessorKey: 'userName' },
      {
        id: 'name',
        header: 'Name',
        accessorFn: (u) => `${u.first_name} ${u.last_name}`,
      },
      { id: 'email', header: 'Email', accessorKey: 'email' },
      { id: 'teams', header: 'Teams', accessorFn: (u) => u.teams.join(', ') },
      {
        id: 'locked_until',
        header: 'Locked until',
        accessorKey: 'locked_until',
        cell: ({ row }) => when(row.original.locked_until),
      },
      { id: 'lock_count', header: 'Locks in a row', accessorKey: 'lock_count' },
      {
        id: 'unlock',
        header: '',
        enableSorting: false,
        cell: ({ row }) => (
          <Button
            size="compact-xs"
            variant="light"
            aria-label={`Unlock ${row.original.userName}`}
            onClick={() => {
              setUnlocking(row.original);
              setConfirming(true);
            }}
          >
            Unlock
          </Button>
        ),
      },
    ],
    [],
  );

  const confirm = async () => {
    if (!unlocking) return;
    const user = unlocking;
    setBusy(true);
    try {
      const res = await unlockUser(user.id);
      setResult({ ok: true, text: `${user.userName}: ${res.message}` });
    } catch (err) {
      setResult({
        ok: false,
        text:
          err instanceof ApiRequestError && err.body?.displayToUser
            ? `Error: ${err.body.message}`
            : LOCKOUT_MESSAGES.unlockFailed,
      });
    } finally {
      setBusy(false);
      setConfirming(false);
      void qc.invalidateQueries({ queryKey: ['lockedUsers'] });
    }
  };

  return (
    <Stack>
      <Title order={2}>Locked Accounts</Title>
      <Text c="dimmed" size="sm">
        Accounts of your teams locked after too many failed sign-in attempts. A lock ends by itself (15
        minutes, doubling with each further lock, at most 24 hours) or when the owner resets the password with
        the emailed link.
      </Text>
      {result && (
        <Alert
          color={result.ok ? 'teal' : 'red'}
          role={result.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setResult(null)}
        >
          {result.text}
        </Alert>
      )}
      {locked.isError && <Alert color="red">{LOCKOUT_MESSAGES.unlockFailed}</Alert>}
      <DataTable
        label="Locked accounts"
        data={locked.data ?? []}
        columns={columns}
        getRowId={(u) => String(u.id)}
        stateKey="lockedAccounts"
        emptyText={locked.isLoading ? 'Loading…' : LOCKOUT_MESSAGES.noneLocked}
        globalFilter={false}
      />
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Unlock account?" centered>
        {unlocking && (
          <Stack>
            <Text size="sm">
              Unlock <b>{unlocking.userName}</b> ({unlocking.first_name} {unlocking.last_name},{' '}
              {unlocking.email})? The failed attempts are forgotten and the owner can sign in at once.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button loading={busy} onClick={confirm}>
                Unlock
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
