/*
 * The Fitbit data calls (core §7): tracker data by allow-listed resource path
 * (the participant's email, or '-', in the path as the spec has it), and the
 * local summary the server computes and stores. One fetcher + hook per call.
 * Answers carry normalized series (`series`, decision 030), the overview
 * (`overview`) or log lists (`records`), never the provider's own JSON.
 */
import {
  type UseQueryResult,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  LocalSummary,
  localSummaryResultSchema,
  TrackerOverview,
  TrackerSeriesResult,
} from '@trialwear/contract';
import { useCallback } from 'react';
import type { z } from 'zod';
import { ApiRequestError, api } from '../../../lib/api-client';

// Answers are typed by the contract's schemas, not parsed here: the server validates them on the way
// out, and parsing would pull zod's record/unknown schemas into the entry chunk every page loads.
export const fetchTrackerData = (participantId: number, email: string | undefined, resourcePath: string) =>
  api.get<TrackerSeriesResult>(
    `/getFitbitServerParticipantData/${participantId}/${encodeURIComponent(email || '-')}/${encodeURIComponent(resourcePath)}`,
  );

/** A provider's 429 and "no data" are answers to show, not failures to retry. */
const retry = (count: number, err: unknown) =>
  count < 1 && !(err instanceof ApiRequestError && err.status < 500);

const trackerQuery = (participantId: number, email: string | undefined, path: string) => ({
  queryKey: ['fitbitData', participantId, path],
  queryFn: () => fetchTrackerData(participantId, email, path),
  staleTime: 5 * 60_000,
  retry,
});

type PathResult = UseQueryResult<TrackerSeriesResult, unknown>;
/** All answers or none: a subject's value needs every path of its range. */
const allOrNothing = (results: PathResult[]) => ({
  data: results.every((r) => r.isSuccess) ? results.map((r) => r.data!) : undefined,
  error: results.find((r) => r.error)?.error ?? null,
  isLoading: results.some((r) => r.isLoading),
});

/**
 * Several resource paths of one participant (a subject's paths over its
 * sub-ranges). `combine` is stable, so the result keeps its identity until an
 * answer changes (a chart is rebuilt only then).
 */
export function useTrackerPaths(participantId: number, email: string | undefined, paths: string[]) {
  return useQueries({
    queries: paths.map((p) => trackerQuery(participantId, email, p)),
    combine: allOrNothing,
  });
}

/** The same paths for several participants (the several-participants page; pass memoized arrays). */
export function useTrackerPathsOfMany<P extends { id: number; email?: string }>(
  participants: P[],
  paths: string[],
) {
  const combine = useCallback(
    (results: PathResult[]) =>
      participants.map((p, i) => ({
        participant: p,
        ...allOrNothing(results.slice(i * paths.length, (i + 1) * paths.length)),
      })),
    [participants, paths.length],
  );
  return useQueries({
    queries: participants.flatMap((p) => paths.map((path) => trackerQuery(p.id, p.email, path))),
    combine,
  });
}

/** `/overview`: 14 local days per subject and their 7-vs-7 summary, computed by the server. */
export function useTrackerOverview(participantId: number, email: string | undefined) {
  return useQuery({
    ...trackerQuery(participantId, email, '/overview'),
    select: (r): { timeZone: string; overview: TrackerOverview } => {
      // `/overview` answers `overview` (never `series`); anything else is the server's bug, shown as an error.
      if (!r.overview) throw new Error('The overview answer has no overview.');
      return { timeZone: r.timeZone, overview: r.overview };
    },
  });
}

type LocalSummaryResult = z.infer<typeof localSummaryResultSchema>;

export const fetchLocalSummary = (participantId: number) =>
  api.get<LocalSummaryResult>(`/fitbitDataLocalDB/${participantId}`);

export const useLocalSummary = (participantId: number) =>
  useQuery({
    queryKey: ['fitbitLocalSummary', participantId],
    queryFn: () => fetchLocalSummary(participantId),
    retry,
  });

/** POST: the server computes the summary from provider data (the body's data is not trusted) and stores it. */
export function useSaveLocalSummary(participantId: number, email: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<LocalSummaryResult>(`/fitbitDataLocalDB/${participantId}`, { email: email || '-', data: {} }),
    onSuccess: (r) => qc.setQueryData(['fitbitLocalSummary', participantId], r),
  });
}

export type { LocalSummary };
