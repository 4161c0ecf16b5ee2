import { useQuery } from '@tanstack/react-query';
import type { DexcomDataResult } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

/** Dexcom's local date-times without offset (YYYY-MM-DDTHH:mm:ss), the query's window. */
export interface DexcomWindow {
  startDate: string;
  endDate: string;
}

/** GET /api/getDexcomParticipantData/{id}/{resource}?startDate=&endDate= (windows over 30 days are stitched by the server). */
export const fetchDexcomData = (participantId: number, resource: string, window: DexcomWindow) =>
  api.get<DexcomDataResult>(
    `/getDexcomParticipantData/${participantId}/${resource}?startDate=${encodeURIComponent(window.startDate)}&endDate=${encodeURIComponent(window.endDate)}`,
  );

export const useDexcomEgvs = (participantId: number, window: DexcomWindow | null) =>
  useQuery({
    queryKey: ['dexcomData', participantId, 'egvs', window],
    queryFn: () => fetchDexcomData(participantId, 'egvs', window as DexcomWindow),
    enabled: window !== null,
    retry: false,
  });
