import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type CallBody, GetSensorSeries, type GetTemperatureList, SENSOR_CALLS, type SensorKindName, type SensorSeries } from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call, callBinary } from '../../../lib/api';
import { useSignedIn, useZone } from '../../../lib/session';
import type { SensorSortField } from './kinds';
import { decodeSeries } from './series-client';

/**
 * The sensor panels' calls: a kind's series for the chart (Sensor/GetSeries, base64 decoded in the worker;
 * asked again with the visible range when the chart is zoomed) and a page of its records for the table.
 * Keys carry the zone and language: times and messages are the server's.
 */

export interface SeriesParams {
  imei: string;
  kind: SensorKindName;
  /** Texts in the user's zone ('YYYY-MM-DD HH:mm:ss'). */
  start: string;
  end: string;
  /** The chart's plotting width in pixels. */
  width: number;
}

export interface SensorPageParams {
  imei: string;
  kind: SensorKindName;
  start: string;
  end: string;
  currentPage: number;
  pageSize: number;
  sortField?: SensorSortField | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

export const sensorKeys = {
  all: ['sensors'] as const,
  series: (p: SeriesParams, zone: string, lang: string) => [...sensorKeys.all, 'series', p, zone, lang] as const,
  page: (p: SensorPageParams, zone: string, lang: string) => [...sensorKeys.all, 'page', p, zone, lang] as const,
};

export function useSensorSeries(params: SeriesParams | null) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: params ? sensorKeys.series(params, zone, lang) : [...sensorKeys.all, 'series', 'none'],
    queryFn: async ({ signal }): Promise<SensorSeries> => {
      const p = params!;
      const { bytes } = await callBinary(
        GetSensorSeries,
        { imei: p.imei, kind: p.kind, startTime: p.start, endTime: p.end, timeZone: zone, width: p.width },
        { loading: false, repeatCheck: false, signal },
      );
      return decodeSeries(bytes, signal);
    },
    enabled: signedIn && !!params && params.start !== '' && params.end !== '' && params.width > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    gcTime: 60_000,
  });
}

/** A record of any scalar kind: its time and its values by §3 field name. */
export type SensorRecord = { Time: string } & Record<string, number | string>;

export function useSensorPage(params: SensorPageParams) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: sensorKeys.page(params, zone, lang),
    queryFn: async ({ signal }) => {
      // Every kind's list takes the same body; only the sort fields and the record's fields differ.
      const def = SENSOR_CALLS[params.kind].list as unknown as typeof GetTemperatureList;
      const body = {
        imei: params.imei,
        startTime: params.start,
        endTime: params.end,
        timeZone: zone,
        currentPage: params.currentPage,
        pageSize: params.pageSize,
        ...(params.sortField && params.sortOrder ? { sortField: params.sortField, sortOrder: params.sortOrder } : {}),
      };
      const page = await call(def, body as CallBody<typeof GetTemperatureList>, { loading: false, repeatCheck: false, signal });
      return page as unknown as { List: SensorRecord[]; Total: number };
    },
    enabled: signedIn && params.start !== '' && params.end !== '',
    placeholderData: keepPreviousData,
  });
}
