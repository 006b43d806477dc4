import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ConvertFixInvalid,
  formatTime,
  GetConvertedInvalidListPage,
  GetFix,
  GetFixCount,
  GetFixListByPage,
  GetFixSpan,
  parseTime,
  type CallBody,
  type FIX_SORT_FIELDS,
  type PositionFilter,
  type SecondLevelMode,
} from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call } from '../../../lib/api';
import { positionKeys } from '../../../lib/tracks';
import { useSignedIn, useZone } from '../../../lib/session';

/**
 * The /track screen's calls: a page of the fixes table, one fix's detail, the converted-invalid list,
 * marking fixes invalid, and counting where a fix of the map stands in the table. Every key starts with
 * positionKeys.all, so marking a fix refreshes the table, the list and every map's tracks at once.
 */

export type FixSortField = (typeof FIX_SORT_FIELDS)[number];
type PageBody = Required<Pick<CallBody<typeof GetFixListByPage>, 'currentPage' | 'pageSize'>>;

/** What the table shows: one device, a range in the user's zone, the filters and second-level mode. */
export interface FixQuery {
  imei: string;
  start: string;
  end: string;
  secondLevel: SecondLevelMode;
  filter: PositionFilter;
}

/** A page of the table: the query, and the call's own paging and sorting fields. */
export type FixPageParams = FixQuery & PageBody & Pick<CallBody<typeof GetFixListByPage>, 'sortField' | 'sortOrder'>;

export const trackKeys = {
  page: (p: FixPageParams, zone: string, lang: string) => [...positionKeys.all, 'table', p, zone, lang] as const,
  converted: (p: ConvertedPageParams, zone: string, lang: string) => [...positionKeys.all, 'converted', p, zone, lang] as const,
  fix: (imei: string, id: string, zone: string, lang: string) => [...positionKeys.all, 'fix', imei, id, zone, lang] as const,
  span: (imei: string, zone: string) => [...positionKeys.all, 'span', imei, zone] as const,
};

/**
 * A device's first and last fix times in the user's zone (null: it has none; a share's within its data
 * period), read only when asked for (`enabled`: the range shown holds none).
 */
export function useFixSpan(imei: string, enabled: boolean) {
  const zone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: trackKeys.span(imei, zone),
    queryFn: ({ signal }) => call(GetFixSpan, { imei, timeZone: zone }, { loading: false, repeatCheck: false, notify: false, signal }),
    enabled: enabled && signedIn,
  });
}

function queryBody(q: FixQuery, zone: string) {
  return { imei: q.imei, startTime: q.start, endTime: q.end, timeZone: zone, secondLevel: q.secondLevel, ...q.filter };
}

export function useFixPage(params: FixPageParams | null) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: params ? trackKeys.page(params, zone, lang) : [...positionKeys.all, 'table', 'none'],
    queryFn: ({ signal }) => {
      const p = params!;
      const body = {
        ...queryBody(p, zone),
        currentPage: p.currentPage,
        pageSize: p.pageSize,
        ...(p.sortField && p.sortOrder ? { sortField: p.sortField, sortOrder: p.sortOrder } : {}),
      };
      return call(GetFixListByPage, body, { loading: false, repeatCheck: false, signal });
    },
    enabled: params !== null && params.start !== '' && params.end !== '' && signedIn,
    placeholderData: keepPreviousData,
  });
}

/** One fix with what only its detail carries (its Annotations); null reads nothing. */
export function useFix(imei: string, id: string | null) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: trackKeys.fix(imei, id ?? '', zone, lang),
    queryFn: ({ signal }) => call(GetFix, { imei, id: id!, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: id !== null && signedIn,
    // The same fix stays on screen while it is read again in another language or zone; another fix never
    // stands in for the one asked for (its annotations would be shown as this one's).
    placeholderData: (previous) => (previous && previous.Id === id ? previous : undefined),
  });
}

/**
 * How many rows of the table are older than the fix at `time` (same range, filters and second-level
 * mode): with the table sorted by time this says which page holds the fix.
 */
export async function countOlder(q: FixQuery, time: number, zone: string): Promise<number> {
  const start = parseTime(q.start, zone);
  // Times cross the API to the second: "older" is up to the second before the fix.
  const end = formatTime(time - 1000, zone);
  if (start === null || (parseTime(end, zone) ?? -Infinity) < start) return 0;
  const reply = await call(GetFixCount, { ...queryBody(q, zone), endTime: end }, { loading: false, repeatCheck: false });
  return reply.Count;
}

/** A page of the marked fixes: the call's body but the zone (every call gets the user's). */
export type ConvertedPageParams = Required<Pick<CallBody<typeof GetConvertedInvalidListPage>, 'imei' | 'currentPage' | 'pageSize'>>;

export function useConvertedInvalid(params: ConvertedPageParams, enabled: boolean) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: trackKeys.converted(params, zone, lang),
    queryFn: ({ signal }) => call(GetConvertedInvalidListPage, { ...params, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: enabled && signedIn,
    placeholderData: keepPreviousData,
  });
}

/** Marks fixes invalid (irreversible, §4); the table, the converted list and every track are read again. */
export function useMarkInvalid() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { imei: string; ids: string[] }) => call(ConvertFixInvalid, body),
    onSuccess: () => client.invalidateQueries({ queryKey: positionKeys.all }),
  });
}
