import { Select, Text } from '@mantine/core';
import type { SessionUser } from '@trialwear/contract';
import { useSession } from '../../../lib/session/session-context';
import { selectTeam, useUserTeams } from '../api/teams-api';

/** The user's teams (each with its own role); choosing one switches the session's team on the server. */
export function TeamPicker({ user }: { user: SessionUser }) {
  const { reload } = useSession();
  const teams = useUserTeams(user.id);
  if (!teams.data || teams.data.length < 2) {
    return (
      <Text size="sm">
        Team: <b>{user.team_name}</b>
      </Text>
    );
  }
  return (
    <Select
      label="Team"
      w={260}
      value={String(user.team_id)}
      data={teams.data.map((t) => ({ value: String(t.team_id), label: `${t.team_name} (${t.role})` }))}
      onChange={async (value) => {
        const team = teams.data.find((t) => String(t.team_id) === value);
        if (!team) return;
        await selectTeam(team);
        await reload();
      }}
    />
  );
}
