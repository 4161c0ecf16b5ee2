import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AddTrialResult,
  DeleteTrialResult,
  Trial,
  TrialForm,
  UpdateTrialResult,
} from '@trialwear/contract';
import { api } from '../../../lib/api-client';

// Keyed by team: switching team shows that team's trials, never another's cached list.
const key = (teamId: number | null) => ['userTrials', teamId] as const;

export function useTrials(teamId: number | null) {
  return useQuery({
    queryKey: key(teamId),
    queryFn: () => api.get<Trial[]>('/userTrials/'),
    enabled: teamId !== null,
  });
}

/** After each change the cached list is updated in place (core §2: "the list updates locally after success"). */
export function useTrialMutations(teamId: number | null) {
  const qc = useQueryClient();
  const setList = (fn: (list: Trial[]) => Trial[]) =>
    qc.setQueryData<Trial[]>(key(teamId), (old) => fn(old ?? []));
  return {
    add: useMutation({
      mutationFn: (form: TrialForm) => api.post<AddTrialResult>('/userTrials', form),
      onSuccess: ({ trial }) => setList((list) => [trial, ...list]),
    }),
    edit: useMutation({
      mutationFn: (input: TrialForm & { trialId: number }) =>
        api.put<UpdateTrialResult>('/userTrials', input),
      onSuccess: ({ trial }) => setList((list) => list.map((t) => (t.trialId === trial.trialId ? trial : t))),
    }),
    remove: useMutation({
      mutationFn: (trialId: number) => api.delete<DeleteTrialResult>('/userTrials', { trialId }),
      onSuccess: ({ trialId }) => setList((list) => list.filter((t) => t.trialId !== trialId)),
    }),
  };
}
