import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { GetUserLogList, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';
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

export { useIsPrimary } from '../../../lib/isPrimary';
