import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { GetWeatherGrid, GetWeatherPoint } from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import type { GridPoint } from './grid';

/**
 * The weather layer's calls. Their failure is shown by the layer itself ("weather data loading failed",
 * §8), not as the client's global warning, and never retried behind the user's back: a station offline
 * would otherwise wait the server's timeout again and again.
 */
const QUIET = { loading: false, repeatCheck: false, notify: false } as const;
/** The server keeps a point 5 minutes; asking again sooner brings the same answer. */
const STALE_MS = 5 * 60_000;

/** The weather now over the grid's points; the previous grid's answer stays drawn while a new one loads. */
export function useWeatherGrid(points: readonly GridPoint[], enabled: boolean) {
  const signedIn = useSignedIn();
  const key = points.map((p) => `${p.lat},${p.lng}`).join(';');
  return useQuery({
    queryKey: ['weather', 'grid', key] as const,
    queryFn: ({ signal }) => call(GetWeatherGrid, { points: [...points] }, { ...QUIET, signal }),
    enabled: enabled && signedIn && points.length > 0,
    staleTime: STALE_MS,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

/** The forecast at a clicked point (null: none asked). */
export function useWeatherPoint(point: GridPoint | null) {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ['weather', 'point', point?.lat, point?.lng] as const,
    queryFn: ({ signal }) => call(GetWeatherPoint, { lat: point!.lat, lng: point!.lng }, { ...QUIET, signal }),
    enabled: signedIn && point !== null,
    staleTime: STALE_MS,
    retry: false,
  });
}
