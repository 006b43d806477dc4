import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { GetUserInfo, GetUserLogList, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { flushUserLog } from '../../../lib/userlog';

export type UserLogQuery = CallBody<typeof GetUserLogList>;

/** The organisation's log; what this console has queued is sent first, so the reader sees it. */
export function useUserLog(query: UserLogQuery, enabled: boolean) {
  return useQuery({
    queryKey: ['userLog', query],
    queryFn: async ({ signal }) => {
      await flushUserLog();
      return call(GetUserLogList, query, { loading: false, repeatCheck: false, signal });
    },
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Whether the signed-in user is their organisation's primary user (the shell's user query, shared). */
export function useIsPrimary(): boolean {
  const { data } = useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: ({ signal }) => call(GetUserInfo, undefined, { loading: false, repeatCheck: false, signal }),
    staleTime: 5 * 60_000,
  });
  return data?.IsPrimary === true;
}
