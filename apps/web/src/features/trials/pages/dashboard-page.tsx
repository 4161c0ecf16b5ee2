import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { clearTableStates } from '../../../components/data-table/table-state';
import { canAddTrial } from '../../../lib/permissions';
import { useSession } from '../../../lib/session/session-context';
import { TeamPicker } from '../../teams';
import { noTrialsText, TrialsTable } from '../components/trials-table';

export default function DashboardPage() {
  const { session } = useSession();
  const user = session.kind === 'authorized' ? session.user : null;

  // Visiting the dashboard clears the remembered participant-table state (core §2).
  useEffect(() => clearTableStates('participants'), []);

  if (!user) return null;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Dashboard</Title>
          <Text c="dimmed" size="sm">
            Welcome, {user.first_name}.{' '}
            {canAddTrial(user.role)
              ? 'Trials of your team.'
              : "The trials of your team you were added to; your team's Admins add you on a trial's Manage Users page."}
          </Text>
        </div>
        <TeamPicker user={user} />
      </Group>
      {user.team_status !== 'Active' && (
        <Alert color="red">Your team's subscription is no longer active or has expired.</Alert>
      )}
      <TrialsTable user={user} stateKey="trials" emptyText={noTrialsText(user.role)} />
    </Stack>
  );
}
