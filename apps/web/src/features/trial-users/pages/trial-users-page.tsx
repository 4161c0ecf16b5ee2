/*
 * Manage Users for this trial (admin spec): the trial comes from navigation
 * state; users table without selection or filter; the owner shows 'Trial
 * Owner' instead of a delete action; Add User and 'Delete User?' modals.
 * The list is updated locally after each change.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import {
  type AddTrialUserResult,
  emailSchema,
  TRIAL_USERS_PAGE_MESSAGES,
  type Trial,
  type TrialUser,
} from '@trialwear/contract';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { DataTable } from '../../../components/data-table/data-table';
import { ApiRequestError } from '../../../lib/api-client';
import { addTrialUser, deleteTrialUser, useTeamUsers, useTrialUsers } from '../api/trial-users-api';
import { trialUserErrorText } from '../trial-user-errors';

export default function TrialUsersPage() {
  const trial = (useLocation().state as { trial?: Trial } | null)?.trial;
  if (!trial) return <Alert color="red">{TRIAL_USERS_PAGE_MESSAGES.missing}</Alert>;
  return <TrialUsers trial={trial} />;
}

function TrialUsers({ trial }: { trial: Trial }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const users = useTrialUsers(trial.trialId);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<TrialUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  const setUsers = (fn: (list: TrialUser[]) => TrialUser[]) =>
    qc.setQueryData<TrialUser[]>(['trialUsers', trial.trialId], (old) => fn(old ?? []));

  const columns = useMemo<ColumnDef<TrialUser, unknown>[]>(
    () => [
      { id: 'id', header: 'Id', accessorKey: 'id' },
      { id: 'email', header: 'Email', accessorKey: 'email' },
      {
        id: 'delete',
        header: 'Delete',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.isOwner ? (
            <Text size="sm" fw={600}>
              Trial Owner
            </Text>
          ) : (
            <Button size="compact-xs" color="red" variant="light" onClick={() => setDeleting(row.original)}>
              Delete
            </Button>
          ),
      },
    ],
    [],
  );

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Manage Users for this trial</Title>
          <Text c="dimmed">
            Trial #{trial.trialNumber} - {trial.trialName}
          </Text>
        </div>
        <Button variant="default" onClick={() => navigate('/TrialPage', { state: { trial } })}>
          Back to trial
        </Button>
      </Group>
      {error && (
        <Alert color="red" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <DataTable
        label="Users"
        data={users.data ?? []}
        columns={columns}
        getRowId={(u) => String(u.id)}
        stateKey={`trialUsers.${trial.trialId}`}
        emptyText={users.isLoading ? 'Loading…' : 'No users'}
        globalFilter={false}
        toolbar={<Button onClick={() => setAdding(true)}>Add User</Button>}
      />
      {adding && (
        <AddUserModal
          trial={trial}
          onTrial={users.data ?? []}
          onClose={() => setAdding(false)}
          onAdded={(u) => {
            try {
              setUsers((list) => [...list, { id: u.userId, email: u.userEmail, isOwner: false }]);
            } catch {
              setError(TRIAL_USERS_PAGE_MESSAGES.addedDisplayWrong);
            }
          }}
        />
      )}
      {deleting && (
        <Modal opened onClose={() => setDeleting(null)} title="Delete User?" centered>
          <Stack>
            <TextInput label="User Id" value={String(deleting.id)} readOnly />
            <TextInput label="Email" value={deleting.email} readOnly />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                Cancel
              </Button>
              <Button
                color="red"
                onClick={async () => {
                  const user = deleting;
                  setDeleting(null);
                  try {
                    await deleteTrialUser(trial.trialId, user);
                  } catch (err) {
                    setError(
                      err instanceof ApiRequestError && err.body?.displayToUser
                        ? trialUserErrorText(err.body.message)
                        : TRIAL_USERS_PAGE_MESSAGES.deleteFailed,
                    );
                    return;
                  }
                  try {
                    setUsers((list) => list.filter((u) => u.id !== user.id));
                  } catch {
                    setError(TRIAL_USERS_PAGE_MESSAGES.deletedDisplayWrong);
                  }
                }}
              >
                Delete
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}

const addUserSchema = z.object({ userEmail: emailSchema });

function AddUserModal({
  trial,
  onTrial,
  onClose,
  onAdded,
}: {
  trial: Trial;
  /** Users already on the trial: not offered again. */
  onTrial: TrialUser[];
  onClose: () => void;
  onAdded: (u: AddTrialUserResult['data']) => void;
}) {
  const team = useTeamUsers(trial.trialId);
  const [error, setError] = useState<string | null>(null);
  const { control, handleSubmit, formState } = useForm<{ userEmail: string }>({
    resolver: zodResolver(addUserSchema),
    defaultValues: { userEmail: '' },
  });
  const onSubmit = handleSubmit(async ({ userEmail }) => {
    setError(null);
    try {
      const res = await addTrialUser(trial.trialId, userEmail);
      onAdded(res.data);
      onClose();
    } catch (err) {
      setError(
        err instanceof ApiRequestError && err.body?.displayToUser
          ? trialUserErrorText(err.body.message)
          : TRIAL_USERS_PAGE_MESSAGES.addFailed,
      );
    }
  });
  return (
    <Modal opened onClose={onClose} title="Add User" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error && (
            <Alert color="red" withCloseButton onClose={() => setError(null)}>
              {error}
            </Alert>
          )}
          <TextInput label="Trial Number" value={trial.trialNumber} readOnly />
          <TextInput label="Trial Name" value={trial.trialName} readOnly />
          <Controller
            control={control}
            name="userEmail"
            render={({ field, fieldState }) => (
              <Select
                label="User Email"
                withAsterisk
                searchable
                placeholder="Choose a team user"
                data={(team.data ?? [])
                  .filter((u) => !onTrial.some((t) => t.id === u.id))
                  .map((u) => ({
                    value: u.email,
                    label: `${u.email} (${u.first_name} ${u.last_name})`,
                  }))}
                nothingFoundMessage="Every team user is already on this trial"
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                error={fieldState.error?.message}
              />
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={formState.isSubmitting}>
              Add User
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
