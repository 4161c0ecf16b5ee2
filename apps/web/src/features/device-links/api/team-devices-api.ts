import { useQuery } from '@tanstack/react-query';
import type { TeamAllowedDevice } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const useTeamAllowedDevices = (teamId: number | null) =>
  useQuery({
    queryKey: ['teamAllowedDevices', teamId],
    queryFn: () => api.get<TeamAllowedDevice[]>(`/teamAllowedDevices/${teamId}`),
    enabled: teamId !== null,
  });
