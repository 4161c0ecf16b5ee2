import { useQuery } from '@tanstack/react-query';
import type { AuthResponse, UserTeam } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const useUserTeams = (userId: number) =>
  useQuery({
    queryKey: ['userTeams', userId],
    queryFn: () => api.get<UserTeam[]>(`/userTeamsData/${userId}`),
    retry: false,
  });

/** Switches the session's team on the server; the session is reloaded afterwards. */
export const selectTeam = (team: UserTeam) =>
  api.post<AuthResponse>('/selectTeam', { teamId: team.team_id, teamName: team.team_name, role: team.role });
