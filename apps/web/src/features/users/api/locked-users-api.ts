import { useQuery } from '@tanstack/react-query';
import type { ActionResult, LockedUser } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const useLockedUsers = () =>
  useQuery({ queryKey: ['lockedUsers'], queryFn: () => api.get<LockedUser[]>('/users/locked') });

export const unlockUser = (userId: number) => api.post<ActionResult>(`/users/${userId}/unlock`);
