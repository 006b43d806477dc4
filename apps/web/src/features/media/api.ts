import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BatchDownloadWAV, ConvertPDMToWAV, MEDIA_CALLS, type MediaFixOf, type MediaKindCall } from '@wildtrack/contract';
import { useLang } from '../../i18n';
import { call, download } from '../../lib/api';
import { useSignedIn, useZone } from '../../lib/session';

/**
 * The /media screen's calls: the chosen devices' images, videos or recordings over a range
 * (Sensor/Get<Kind>All), a PDM recording's conversion (ConvertPDMToWAV: the list is read again, its
 * OssFile now set) and the batch WAV download. Keys carry the zone and language: times are the server's.
 */

export interface MediaAllParams<K extends MediaKindCall> {
  kind: K;
  /** The chosen devices that offer the kind. */
  imeis: readonly string[];
  /** Texts in the user's zone ('YYYY-MM-DD HH:mm:ss'). */
  start: string;
  end: string;
}

export const mediaKeys = {
  all: ['media'] as const,
  list: (p: MediaAllParams<MediaKindCall>, zone: string, lang: string) => [...mediaKeys.all, 'list', p, zone, lang] as const,
};

/**
 * The chosen devices' files of a kind over the range, newest first (Sensor/Get<Kind>All: at most
 * MEDIA_ALL_MAX; Total says how many the range holds). The screen pages through them itself.
 */
export function useMediaAll<K extends MediaKindCall>(params: MediaAllParams<K>) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: mediaKeys.list(params, zone, lang),
    queryFn: async ({ signal }): Promise<{ List: MediaFixOf<K>[]; Total: number }> => {
      const def = MEDIA_CALLS[params.kind].all as typeof MEDIA_CALLS.image.all;
      const data = await call(def, { imeis: [...params.imeis], startTime: params.start, endTime: params.end, timeZone: zone }, { loading: false, repeatCheck: false, signal });
      // The call's schema is the kind's (def above is typed as the image one only).
      return data as unknown as { List: MediaFixOf<K>[]; Total: number };
    },
    enabled: signedIn && params.imeis.length > 0 && params.start !== '' && params.end !== '',
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useConvertToWav() {
  const zone = useZone();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { imei: string; pickTime: string }) => call(ConvertPDMToWAV, { imei: v.imei, pickTime: v.pickTime, timeZone: zone }, { loading: false }),
    // The recording's OssFile is set now: the audio pages are read again.
    onSuccess: () => client.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}

export function useBatchWav() {
  const zone = useZone();
  const client = useQueryClient();
  return useMutation({
    // One zip per device (the call names one device): the chosen recordings grouped by device, in turn.
    mutationFn: async (chosen: readonly { imei: string; pickTime: string }[]) => {
      const byDevice = new Map<string, string[]>();
      for (const c of chosen) byDevice.set(c.imei, [...(byDevice.get(c.imei) ?? []), c.pickTime]);
      for (const [imei, pickTimes] of byDevice) await download(BatchDownloadWAV, { imei, pickTimes, timeZone: zone });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}
