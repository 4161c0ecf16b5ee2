import { Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SessionUser, UserTeam } from '@trialwear/contract';
import { api } from '../../../lib/api-client';
import { useSession } from '../../auth/session-context';

/** The user's teams (each with its own role); choosing one switches the session's team on the server. */
export function TeamPicker({ user }: { user: SessionUser }) {
  const { reload } = useSession();
  const teams = useQuery({
    queryKey: ['userTeams', user.id],
    queryFn: () => api.get<UserTeam[]>(`/userTeamsData/${user.id}`),
    retry: false,
  });
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
      allowDeselect={false}
      value={String(user.team_id)}
      data={teams.data.map((t) => ({ value: String(t.team_id), label: `${t.team_name} (${t.role})` }))}
      onChange={async (value) => {
        const team = teams.data.find((t) => String(t.team_id) === value);
        if (!team) return;
        await api.post('/selectTeam', { teamId: team.team_id, teamName: team.team_name, role: team.role });
        await reload();
      }}
    />
  );
}
