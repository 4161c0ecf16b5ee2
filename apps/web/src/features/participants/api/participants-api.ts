import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AddParticipantResult,
  CodeChangeResult,
  DeleteParticipantResult,
  EditParticipantResult,
  ImportApplyResult,
  ImportFormat,
  ImportPreview,
  Participant,
  TeamParticipants,
  TrialCodeResult,
  TrialParticipants,
  TrialParticipantsParams,
} from '@trialwear/contract';
import { api } from '../../../lib/api-client';

const key = (trialId: number) => ['trialParticipants', trialId] as const;

/** The trial's whole list (the spec's call): for pages that look one participant up in it. */
export function useTrialParticipants(trialId: number | undefined) {
  return useQuery({
    queryKey: key(trialId ?? 0),
    queryFn: () => api.get<TrialParticipants>(`/trialParticipants/${trialId}`),
    enabled: !!trialId,
  });
}

const search = (params: TrialParticipantsParams) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])),
  ).toString();

/**
 * A window of the trial's list, paged, filtered and sorted by the server
 * (the trial page's table, decision 040); the previous page stays shown
 * while the next loads. Not asked until `params` is known.
 */
export function useTrialParticipantsWindow(trialId: number, params: TrialParticipantsParams | null) {
  return useQuery({
    queryKey: [...key(trialId), 'window', params] as const,
    queryFn: () => api.get<TrialParticipants>(`/trialParticipants/${trialId}?${search(params ?? {})}`),
    enabled: !!params,
    placeholderData: keepPreviousData,
  });
}

/** Every participant matching `params`' filter, in its order (the table's export). */
export const fetchTrialParticipants = (trialId: number, params: TrialParticipantsParams) =>
  api.get<TrialParticipants>(`/trialParticipants/${trialId}?${search(params)}`);

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
      // deleted row while its (inactive, so not yet refetched) queries reload: the whole
      // list and every window of it.
      onSuccess: (_res, id) => {
        qc.setQueriesData<TrialParticipants>({ queryKey: key(trialId) }, (old) => {
          if (!old?.participants.some((p) => p.id === id)) return old;
          const participants = old.participants.filter((p) => p.id !== id);
          return { ...old, participants, ...(old.total === undefined ? {} : { total: old.total - 1 }) };
        });
        return refresh();
      },
    }),
  };
}

const importPath = (trialId: number) => `/trials/${trialId}/participants/import`;

/** The import template's address (a plain download: the session cookie is enough for a GET). */
export const importTemplateUrl = (trialId: number, format: ImportFormat) =>
  `/api${importPath(trialId)}/template?format=${format}`;

const uploadForm = (file: File, previewDigest?: string) => {
  const form = new FormData();
  if (previewDigest) form.append('previewDigest', previewDigest);
  form.append('file', file);
  return form;
};

/** Bulk enrolment (decision 045): preview a file's rows, then create its valid rows as previewed. */
export function useParticipantImport(trialId: number) {
  const qc = useQueryClient();
  return {
    preview: useMutation({
      mutationFn: (file: File) => api.post<ImportPreview>(`${importPath(trialId)}/preview`, uploadForm(file)),
    }),
    apply: useMutation({
      mutationFn: ({ file, previewDigest }: { file: File; previewDigest: string }) =>
        api.post<ImportApplyResult>(`${importPath(trialId)}/apply`, uploadForm(file, previewDigest)),
      onSuccess: () => qc.invalidateQueries({ queryKey: key(trialId) }),
    }),
  };
}
