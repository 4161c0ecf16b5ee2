import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HiddenField, Participant } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export type ListedParticipant = Participant & { authorized_devices: string[] };
export interface TrialParticipants {
  hiddenFields: HiddenField[];
  participants: ListedParticipant[];
}

const key = (trialId: number) => ['trialParticipants', trialId] as const;

export function useTrialParticipants(trialId: number | undefined) {
  return useQuery({
    queryKey: key(trialId ?? 0),
    queryFn: () => api.get<TrialParticipants>(`/trialParticipants/${trialId}`),
    enabled: !!trialId,
  });
}

export function useTrialCode(trialId: number | undefined) {
  return useQuery({
    queryKey: ['trialCode', trialId],
    queryFn: () =>
      api
        .get<{ data: { trial_code: string } }>(`/trialParticipants/${trialId}/trialCode`)
        .then((r) => r.data.trial_code),
    enabled: !!trialId,
  });
}

export interface NewParticipant {
  trialId: number;
  gender: Participant['gender'];
  age: string;
  email: string;
  notes: string;
  codeSuffix: string;
}

export function useParticipantMutations(trialId: number) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: key(trialId) });
  return {
    add: useMutation({
      mutationFn: (p: NewParticipant) =>
        api.post<{
          participantId: number;
          participant_code: string | null;
          participant_code_suffix: string | null;
        }>('/trialParticipants', p),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: (p: {
        id: number;
        gender: Participant['gender'];
        age: string;
        email?: string;
        notes?: string;
      }) => api.put<{ participant: Participant }>('/participant', p),
      onSuccess: refresh,
    }),
    changeCode: useMutation({
      mutationFn: ({ participantId, suffix }: { participantId: number; suffix: string | null }) =>
        api.patch<{ participant_code: string | null }>(
          `/trialParticipants/${trialId}/${participantId}/code`,
          { suffix },
        ),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api.delete<{ id: number }>('/participant', { id }),
      onSuccess: refresh,
    }),
  };
}
