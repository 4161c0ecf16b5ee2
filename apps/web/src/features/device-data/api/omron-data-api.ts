import { useQuery } from '@tanstack/react-query';
import type { OmronDataResult, OmronQuery } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

/** POST /api/getOmronParticipantData/{id} (core §7): one category since a local date. */
export const fetchOmronData = (participantId: number, queryStr: OmronQuery) =>
  api.post<OmronDataResult>(`/getOmronParticipantData/${participantId}`, { queryStr });

/** `query` null = not asked yet (the form is not submitted); each submitted query is cached by its values. */
export const useOmronData = (participantId: number, query: OmronQuery | null) =>
  useQuery({
    queryKey: ['omronData', participantId, query],
    queryFn: () => fetchOmronData(participantId, query as OmronQuery),
    enabled: query !== null,
    retry: false,
  });
