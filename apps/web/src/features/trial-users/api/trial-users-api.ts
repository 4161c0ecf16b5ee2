import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface TrialUser {
  id: number;
  email: string;
  isOwner: boolean;
}
export interface TeamUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
}

export const useTrialUsers = (trialId: number) =>
  useQuery({
    queryKey: ['trialUsers', trialId],
    queryFn: () => api.get<TrialUser[]>(`/trialUsers/${trialId}`),
  });
export const useTeamUsers = (trialId: number) =>
  useQuery({ queryKey: ['teamUsers', trialId], queryFn: () => api.get<TeamUser[]>(`/teamUsers/${trialId}`) });

export const addTrialUser = (trialId: number, userEmail: string) =>
  api.post<{ data: { userId: number; userEmail: string } }>('/trialUsers', { userEmail, trialId });
export const deleteTrialUser = (trialId: number, user: TrialUser) =>
  api.delete<{ success: true }>('/trialUsers', { userId: user.id, userEmail: user.email, trialId });
