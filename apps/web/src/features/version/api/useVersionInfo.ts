import { useQuery } from '@tanstack/react-query';
import { GetVersionInfo, type VersionRegion } from '@wildtrack/contract';
import { call } from '../../../lib/api';

export function useVersionInfo(lang: string, region: VersionRegion, enabled: boolean) {
  return useQuery({
    queryKey: ['version', lang, region],
    queryFn: ({ signal }) => call(GetVersionInfo, { region }, { loading: false, repeatCheck: false, signal }),
    enabled,
    staleTime: 10 * 60_000,
  });
}
