import { useQuery } from '@tanstack/react-query';
import { GetUserInfo } from '@wildtrack/contract';
import { useEffect } from 'react';
import { call } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { refreshStoredUser } from '../../lib/session';

/**
 * Reads the signed-in user when the shell opens, so the header shows current values (nickname, time
 * zone) after a reload, and a session that ended while the tab was closed is noticed at once (1004
 * sends the user to /login) instead of on the first click.
 */
export function useUserInfo(): void {
  const { data } = useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: ({ signal }) => call(GetUserInfo, undefined, { loading: false, repeatCheck: false, signal }),
    staleTime: 5 * 60_000,
  });
  useEffect(() => {
    if (data) refreshStoredUser(data);
  }, [data]);
}
