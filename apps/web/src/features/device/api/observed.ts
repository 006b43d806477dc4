import { useQuery } from '@tanstack/react-query';
import { GetObservedWork, OBSERVED_DAYS_DEFAULT } from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { useSignedIn, useZone } from '../../../lib/session';

/**
 * The observed schedule and voltage trend of a device (GetObservedWork): the work-status tab and the
 * details' voltage trend share one answer. Keyed by zone and language like every server text.
 */
export function useObservedWork(imei: string, days: number = OBSERVED_DAYS_DEFAULT) {
  const timeZone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.devices, 'observed', imei, days, timeZone, lang],
    queryFn: ({ signal }) => call(GetObservedWork, { imei, days, timeZone }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn,
  });
}
