import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { GetAvgListByImeisAndTime, GetFixListByImeis, GetLastFixList, type PositionFilter, type SecondLevelMode } from '@wildtrack/contract';
import { call, callBinary } from '../api';
import { useSignedIn, useZone } from '../session';
import type { DecodedTrack } from './types';
import { decodeTracks } from './worker-client';

export interface TrackQuery {
  imeis: readonly string[];
  /** 'YYYY-MM-DD HH:mm:ss' in the user's zone. */
  start: string;
  end: string;
  /** Second-level runs as their average (default, §9) or every fix. */
  secondLevel?: SecondLevelMode;
  filter?: PositionFilter;
}

/** Query keys of position data: marking a fix invalid refreshes every view of it. */
export const positionKeys = {
  all: ['positions'] as const,
  tracks: (q: TrackQuery, zone: string) => ['positions', 'tracks', [...q.imeis], q.start, q.end, q.secondLevel ?? 'avg', q.filter ?? {}, zone] as const,
  last: (imeis: readonly string[], zone: string) => ['positions', 'last', [...imeis], zone] as const,
};

/**
 * Tracks of several devices over a range: one bulk call (protobuf, base64) decoded in the worker into
 * typed arrays. The previous tracks stay on screen while a new range loads.
 */
export function useTracks(query: TrackQuery | null) {
  const signedIn = useSignedIn();
  const zone = useZone();
  const enabled = !!query && query.imeis.length > 0 && query.start !== '' && query.end !== '' && signedIn;
  const result = useQuery({
    queryKey: query ? positionKeys.tracks(query, zone) : ['positions', 'tracks', 'none'],
    queryFn: async ({ signal }): Promise<DecodedTrack[]> => {
      const q = query!;
      const def = (q.secondLevel ?? 'avg') === 'avg' ? GetAvgListByImeisAndTime : GetFixListByImeis;
      const body = { imeis: [...q.imeis], startTime: q.start, endTime: q.end, timeZone: zone, ...(q.filter ?? {}) };
      const { bytes } = await callBinary(def, body, { loading: false, repeatCheck: false, signal });
      return decodeTracks(bytes, signal);
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    // Tracks can be large: don't keep ranges nobody looks at.
    gcTime: 60_000,
  });
  return { tracks: enabled ? (result.data ?? []) : [], isFetching: result.isFetching, error: result.error, refetch: result.refetch };
}

/** The latest valid fix of each device (JSON: a handful of rows). */
export function useLastFixes(imeis: readonly string[]) {
  const signedIn = useSignedIn();
  const zone = useZone();
  return useQuery({
    queryKey: positionKeys.last(imeis, zone),
    queryFn: ({ signal }) => call(GetLastFixList, { imeis: [...imeis], timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: imeis.length > 0 && signedIn,
    staleTime: 30_000,
  });
}
