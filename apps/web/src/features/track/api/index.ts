import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ConvertFixInvalid,
  formatTime,
  GetConvertedInvalidListPage,
  GetFixCount,
  GetFixListByPage,
  parseTime,
  type CallBody,
  type FIX_SORT_FIELDS,
  type PositionFilter,
} from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { positionKeys } from '../../../lib/tracks';
import { useSignedIn, useZone } from '../../../lib/session';

/**
 * The /track screen's calls: a page of the fixes table, the converted-invalid list, marking fixes
 * invalid, and counting where a fix of the map stands in the table. Every key starts with
 * positionKeys.all, so marking a fix refreshes the table, the list and every map's tracks at once.
 */

export type FixSortField = (typeof FIX_SORT_FIELDS)[number];
export type PageSize = CallBody<typeof GetFixListByPage>['pageSize'];

/** What the table shows: one device, a range in the user's zone, the filters and second-level mode. */
export interface FixQuery {
  imei: string;
  start: string;
  end: string;
  secondLevel: 'avg' | 'all';
  filter: PositionFilter;
}

export interface FixPageParams extends FixQuery {
  currentPage: number;
  pageSize: number;
  sortField?: FixSortField | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

export const trackKeys = {
  page: (p: FixPageParams, zone: string) => [...positionKeys.all, 'table', p, zone] as const,
  converted: (imei: string, currentPage: number, pageSize: number, zone: string) => [...positionKeys.all, 'converted', imei, currentPage, pageSize, zone] as const,
};

function queryBody(q: FixQuery, zone: string) {
  return { imei: q.imei, startTime: q.start, endTime: q.end, timeZone: zone, secondLevel: q.secondLevel, ...q.filter };
}

export function useFixPage(params: FixPageParams | null) {
  const zone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: params ? trackKeys.page(params, zone) : [...positionKeys.all, 'table', 'none'],
    queryFn: ({ signal }) => {
      const p = params!;
      const body = {
        ...queryBody(p, zone),
        currentPage: p.currentPage,
        pageSize: p.pageSize as PageSize,
        ...(p.sortField && p.sortOrder ? { sortField: p.sortField, sortOrder: p.sortOrder } : {}),
      };
      return call(GetFixListByPage, body, { loading: false, repeatCheck: false, signal });
    },
    enabled: params !== null && params.start !== '' && params.end !== '' && signedIn,
    placeholderData: keepPreviousData,
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

export function useConvertedInvalid(imei: string, currentPage: number, pageSize: number, enabled: boolean) {
  const zone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: trackKeys.converted(imei, currentPage, pageSize, zone),
    queryFn: ({ signal }) =>
      call(GetConvertedInvalidListPage, { imei, currentPage, pageSize: pageSize as PageSize, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
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
