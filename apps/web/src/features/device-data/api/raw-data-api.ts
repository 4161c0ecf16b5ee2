import { useMutation } from '@tanstack/react-query';
import type { Provider, RawDataResult } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

/** What a raw page asks for: the resource and, per provider, its period parameters. */
export interface RawRequest {
  resource: string;
  since?: string;
  startDate?: string;
  endDate?: string;
}

/** GET /api/participantRaw/{participantId}/{provider}?resource=… (Sys_Admin): the provider's answer as received. */
export const fetchRawData = (participantId: number, provider: Provider, req: RawRequest) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(req)) if (v) q.set(k, v);
  return api.get<RawDataResult>(`/participantRaw/${participantId}/${provider}?${q.toString()}`);
};

/** A raw read is run on demand (a button), never cached: each press is a fresh provider call. */
export const useRawData = (participantId: number, provider: Provider) =>
  useMutation({ mutationFn: (req: RawRequest) => fetchRawData(participantId, provider, req) });
