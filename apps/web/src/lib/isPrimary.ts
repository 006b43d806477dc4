import { useQuery } from '@tanstack/react-query';
import { GetUserInfo } from '@wildtrack/contract';
import { call } from './api';
import { queryKeys } from './queryKeys';

/** Whether the signed-in user is their organisation's primary user (the shell's user query, shared). */
export function useIsPrimary(): boolean {
  const { data } = useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: ({ signal }) => call(GetUserInfo, undefined, { loading: false, repeatCheck: false, signal }),
    staleTime: 5 * 60_000,
  });
  return data?.IsPrimary === true;
}
