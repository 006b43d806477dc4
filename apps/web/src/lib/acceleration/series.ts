import { queryOptions, useQuery } from '@tanstack/react-query';
import { GetAccelerationBinaryV2, parseTime } from '@wildtrack/contract';
import { callBinary } from '../api';
import { useSignedIn, useZone } from '../session';
import { decodeAcceleration } from './series-client';

/**
 * Every burst of a device over a range with its samples (GetAccelerationBinaryV2, decoded in a worker),
 * read by /track's acceleration panel (overview, actogram) and by /map2d's replay (the ODBA of the moment).
 * One query key for both, so a range already read on one screen is not read again on the other.
 */

import { OVERVIEW_BUCKETS } from './envelope';

export { OVERVIEW_BUCKETS };

/** One device and a range, as texts in the user's zone ('YYYY-MM-DD HH:mm:ss'). */
export interface BurstRange {
  imei: string;
  start: string;
  end: string;
}

/** Under the acceleration panel's keys (['acceleration', …]): invalidating those reaches these too. */
export const burstSeriesKey = (r: BurstRange, zone: string) => ['acceleration', 'series', r, zone] as const;

/** The query of a range's bursts; null reads nothing (a range longer than the call answers). */
export function burstSeriesQuery(range: BurstRange | null, zone: string, signedIn: boolean) {
  return queryOptions({
    queryKey: range ? burstSeriesKey(range, zone) : (['acceleration', 'series', 'none'] as const),
    queryFn: async ({ signal }) => {
      const r = range!;
      const { bytes } = await callBinary(GetAccelerationBinaryV2, { imei: r.imei, startTime: r.start, endTime: r.end, timeZone: zone }, { loading: false, repeatCheck: false, signal });
      const from = parseTime(r.start, zone) ?? 0;
      const to = (parseTime(r.end, zone) ?? from) + 999;
      return decodeAcceleration({ base64: bytes, from, to, buckets: OVERVIEW_BUCKETS }, signal);
    },
    enabled: signedIn && range !== null && range.start !== '' && range.end !== '',
    staleTime: 60_000,
    gcTime: 60_000,
  });
}

/** A device's bursts over the range (see burstSeriesQuery). */
export function useBurstSeries(range: BurstRange | null) {
  return useQuery(burstSeriesQuery(range, useZone(), useSignedIn()));
}
