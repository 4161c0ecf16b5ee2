import { useQuery } from '@tanstack/react-query';
import type { AddTrialUserResult, RemoveTrialUserResult, TeamUser, TrialUser } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const useTrialUsers = (trialId: number) =>
  useQuery({
    queryKey: ['trialUsers', trialId],
    queryFn: () => api.get<TrialUser[]>(`/trialUsers/${trialId}`),
  });
export const useTeamUsers = (trialId: number) =>
  useQuery({ queryKey: ['teamUsers', trialId], queryFn: () => api.get<TeamUser[]>(`/teamUsers/${trialId}`) });

export const addTrialUser = (trialId: number, userEmail: string) =>
  api.post<AddTrialUserResult>('/trialUsers', { userEmail, trialId });
export const deleteTrialUser = (trialId: number, user: TrialUser) =>
  api.delete<RemoveTrialUserResult>('/trialUsers', { userId: user.id, userEmail: user.email, trialId });
