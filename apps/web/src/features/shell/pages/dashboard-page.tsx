import { Alert, Stack, Text, Title } from '@mantine/core';
import { NotAvailableYet } from '../../../components/not-available-yet';
import { useSession } from '../../auth/session-context';

/** Dashboard: the team picker and trials table arrive with the trials issue. */
export default function DashboardPage() {
  const { session } = useSession();
  if (session.kind !== 'authorized') return null;
  const { user } = session;
  return (
    <Stack>
      <Title order={2}>Welcome, {user.first_name}</Title>
      <Text c="dimmed">
        Team <b>{user.team_name}</b> · role <b>{user.role}</b>
      </Text>
      {user.team_status !== 'Active' && (
        <Alert color="red">Your team's subscription is no longer active or has expired.</Alert>
      )}
      <NotAvailableYet title="Trials" />
    </Stack>
  );
}
