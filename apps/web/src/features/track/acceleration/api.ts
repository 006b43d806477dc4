import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  type ACCELERATION_SORT_FIELDS,
  DownloadAccelerationArchive,
  DownLoadAccelerationDataV2,
  GetAccelerationArchiveList,
  GetAccelerationListV2,
} from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call, download } from '../../../lib/api';
import type { BurstRange } from '../../../lib/acceleration/series';
import { useSignedIn, useZone } from '../../../lib/session';

/**
 * The acceleration panel's calls: a page of a device's bursts over the range (each with its samples:
 * raw, calibrated and ODBA). Keys carry the zone and language: the times and messages are the server's.
 */

// The range's bursts with their samples are read in lib/acceleration (/map2d's replay reads them too).
export { OVERVIEW_BUCKETS, useBurstSeries, type BurstRange } from '../../../lib/acceleration/series';

export type BurstSortField = (typeof ACCELERATION_SORT_FIELDS)[number];

export interface BurstPageParams extends BurstRange {
  currentPage: number;
  pageSize: number;
  sortField?: BurstSortField | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

export const accelerationKeys = {
  all: ['acceleration'] as const,
  page: (p: BurstPageParams, zone: string, lang: string) => [...accelerationKeys.all, 'page', p, zone, lang] as const,
  archives: (imei: string, page: number, size: number, zone: string, lang: string) => [...accelerationKeys.all, 'archives', imei, page, size, zone, lang] as const,
};

export function useBurstPage(params: BurstPageParams) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: accelerationKeys.page(params, zone, lang),
    queryFn: ({ signal }) =>
      call(
        GetAccelerationListV2,
        {
          imei: params.imei,
          startTime: params.start,
          endTime: params.end,
          timeZone: zone,
          currentPage: params.currentPage,
          pageSize: params.pageSize,
          ...(params.sortField && params.sortOrder ? { sortField: params.sortField, sortOrder: params.sortOrder } : {}),
        },
        { loading: false, repeatCheck: false, signal },
      ),
    enabled: signedIn && params.start !== '' && params.end !== '',
    placeholderData: keepPreviousData,
  });
}

/** A page of the device's daily ACC archives (the last 3 closed days). */
export function useArchives(imei: string, currentPage: number, pageSize: number, enabled: boolean) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: accelerationKeys.archives(imei, currentPage, pageSize, zone, lang),
    queryFn: ({ signal }) => call(GetAccelerationArchiveList, { imei, currentPage, pageSize, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn && enabled,
  });
}

/** Downloads the range's bursts as CSV (120 s timeout, the contract's). */
export function useDownloadBursts() {
  const zone = useZone();
  return useMutation({
    mutationFn: (r: BurstRange) => download(DownLoadAccelerationDataV2, { imei: r.imei, startTime: r.start, endTime: r.end, timeZone: zone }, { loading: false }),
  });
}

/** Downloads one daily archive file. */
export function useDownloadArchive() {
  return useMutation({
    mutationFn: (v: { imei: string; archiveDate: string }) => download(DownloadAccelerationArchive, v, { loading: false }),
  });
}
