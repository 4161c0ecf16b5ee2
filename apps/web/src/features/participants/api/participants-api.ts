import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AddParticipantResult,
  CodeChangeResult,
  DeleteParticipantResult,
  EditParticipantResult,
  Participant,
  TeamParticipants,
  TrialCodeResult,
  TrialParticipants,
} from '@trialwear/contract';
import { api } from '../../../lib/api-client';

const key = (trialId: number) => ['trialParticipants', trialId] as const;

export function useTrialParticipants(trialId: number | undefined) {
  return useQuery({
    queryKey: key(trialId ?? 0),
    queryFn: () => api.get<TrialParticipants>(`/trialParticipants/${trialId}`),
    enabled: !!trialId,
  });
}

/** Every participant of the trials the user sees (/ParticipantsPage). */
export function useTeamParticipants(teamId: number | null) {
  return useQuery({
    queryKey: ['teamParticipants', teamId],
    queryFn: () => api.get<TeamParticipants>('/teamParticipants'),
    enabled: teamId !== null,
  });
}

export function useTrialCode(trialId: number | undefined) {
  return useQuery({
    queryKey: ['trialCode', trialId],
    queryFn: () =>
      api.get<TrialCodeResult>(`/trialParticipants/${trialId}/trialCode`).then((r) => r.data.trial_code),
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
      mutationFn: (p: NewParticipant) => api.post<AddParticipantResult>('/trialParticipants', p),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: (p: {
        id: number;
        gender: Participant['gender'];
        age: string;
        email?: string;
        notes?: string;
      }) => api.put<EditParticipantResult>('/participant', p),
      onSuccess: refresh,
    }),
    changeCode: useMutation({
      mutationFn: ({ participantId, suffix }: { participantId: number; suffix: string | null }) =>
        api.patch<CodeChangeResult>(`/trialParticipants/${trialId}/${participantId}/code`, { suffix }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api.delete<DeleteParticipantResult>('/participant', { id }),
      // The list updates locally (core §2): the trial page, opened next, must not show the
      // deleted row while its (inactive, so not yet refetched) query reloads.
      onSuccess: (_res, id) => {
        qc.setQueryData<TrialParticipants>(key(trialId), (old) =>
          old ? { ...old, participants: old.participants.filter((p) => p.id !== id) } : old,
        );
        return refresh();
      },
    }),
  };
}
