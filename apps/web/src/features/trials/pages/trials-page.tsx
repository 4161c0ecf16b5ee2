/*
 * /Trials (content left open by the spec): the team's trials the user may
 * see, with the dashboard's table and actions; the team is named and can be
 * switched on /UserTeams.
 */
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import { noTrialsText, TrialsTable } from '../components/trials-table';

export default function TrialsPage() {
  const { session } = useSession();
  const user = session.kind === 'authorized' ? session.user : null;
  if (!user) return null;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Trials</Title>
          <Text c="dimmed" size="sm">
            Trials of {user.team_name} you can see as {user.role}.
          </Text>
        </div>
        <Anchor component={Link} to="/UserTeams" size="sm">
          Switch team
        </Anchor>
      </Group>
      <TrialsTable user={user} stateKey="trials.page" emptyText={noTrialsText(user.role)} />
    </Stack>
  );
}
