import { useQuery } from '@tanstack/react-query';
import { GetAccountSafeSetting } from '@wildtrack/contract';
import { call } from '../../../lib/api';

export const safeSettingKey = ['account', 'safe-setting'] as const;

/** The e-mail and phone that secure the account, read fresh whenever the security dialog opens. */
export function useSafeSetting(enabled: boolean) {
  return useQuery({
    queryKey: safeSettingKey,
    // Queries are reads that TanStack Query already de-duplicates; the 400 ms submit check is for writes.
    queryFn: ({ signal }) => call(GetAccountSafeSetting, undefined, { loading: false, repeatCheck: false, signal }),
    enabled,
    staleTime: 0,
  });
}
