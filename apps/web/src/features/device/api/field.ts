import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { GetBehaviorFilters, GetBehaviorList, GetPoiList, type Behavior, type Poi } from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call } from '../../../lib/api';
import { useSignedIn, useZone } from '../../../lib/session';

/**
 * Field records of a phone (§3 POI, Behavior): its POIs and behaviour observations over a range, and the
 * motions and recorders to filter the observations by. Keys carry the zone and language: times and the
 * default motions' names are the server's.
 */

export interface FieldRange {
  imei: string;
  /** Texts in the user's zone ('YYYY-MM-DD HH:mm:ss'). */
  start: string;
  end: string;
}

export const fieldKeys = {
  all: ['field'] as const,
  pois: (r: FieldRange, page: number, pageSize: number, zone: string) => [...fieldKeys.all, 'pois', r, page, pageSize, zone] as const,
  behaviors: (p: BehaviorParams, zone: string, lang: string) => [...fieldKeys.all, 'behaviors', p, zone, lang] as const,
  filters: (imei: string, lang: string) => [...fieldKeys.all, 'filters', imei, lang] as const,
};

export function usePois(range: FieldRange, currentPage = 1, pageSize: 10 | 20 | 40 | 50 | 100 = 100, enabled = true) {
  const zone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: fieldKeys.pois(range, currentPage, pageSize, zone),
    queryFn: ({ signal }): Promise<{ List: Poi[]; Total: number }> =>
      call(GetPoiList, { imei: range.imei, startTime: range.start, endTime: range.end, timeZone: zone, currentPage, pageSize }, { loading: false, repeatCheck: false, signal }),
    enabled: enabled && signedIn && range.imei !== '' && range.start !== '' && range.end !== '',
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export interface BehaviorParams extends FieldRange {
  currentPage: number;
  pageSize: 10 | 20 | 40 | 50 | 100;
  motionId?: number | undefined;
  recorder?: string | undefined;
}

export function useBehaviors(params: BehaviorParams) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: fieldKeys.behaviors(params, zone, lang),
    queryFn: ({ signal }): Promise<{ List: Behavior[]; Total: number }> =>
      call(
        GetBehaviorList,
        {
          imei: params.imei,
          startTime: params.start,
          endTime: params.end,
          timeZone: zone,
          currentPage: params.currentPage,
          pageSize: params.pageSize,
          ...(params.motionId === undefined ? {} : { motionId: params.motionId }),
          ...(params.recorder === undefined ? {} : { recorder: params.recorder }),
        },
        { loading: false, repeatCheck: false, signal },
      ),
    enabled: signedIn && params.start !== '' && params.end !== '',
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useBehaviorFilters(imei: string) {
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: fieldKeys.filters(imei, lang),
    queryFn: ({ signal }) => call(GetBehaviorFilters, { imei }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn,
    staleTime: 60_000,
  });
}
