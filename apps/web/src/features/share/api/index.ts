import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateShare, GetReceivedListByPage, GetShareRecipient, GetSharedListByPage, RevokeShare, UpdateShare, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';

const SHARES = ['shares'] as const;

/** Whom a share would go to: whether the account exists and its nickname (nothing is asked for a blank account). */
export function useRecipient(account: string) {
  const typed = account.trim();
  return useQuery({
    queryKey: [...SHARES, 'recipient', typed.toLowerCase()],
    queryFn: ({ signal }) => call(GetShareRecipient, { account: typed }, { loading: false, repeatCheck: false, signal }),
    enabled: typed !== '',
    staleTime: 30_000,
  });
}

/** One page of the shares the caller gave ('given') or got ('received'), times in the zone. */
export function useShareList(side: 'given' | 'received', page: { currentPage: number; pageSize: number }, timeZone: string) {
  return useQuery({
    queryKey: [...SHARES, side, page.currentPage, page.pageSize, timeZone],
    queryFn: ({ signal }) =>
      call(side === 'given' ? GetSharedListByPage : GetReceivedListByPage, { ...page, timeZone } as CallBody<typeof GetSharedListByPage>, { loading: false, repeatCheck: false, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Share changes: each reads the lists again, and the tree (a revoked or moved window changes what a recipient sees, and the sharer's own view of the counts). */
function useShareMutation<B, D>(send: (body: B) => Promise<D>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: SHARES });
      void client.invalidateQueries({ queryKey: queryKeys.tree });
    },
  });
}

export const useCreateShare = () => useShareMutation((body: CallBody<typeof CreateShare>) => call(CreateShare, body));
export const useUpdateShare = () => useShareMutation((body: CallBody<typeof UpdateShare>) => call(UpdateShare, body));
export const useRevokeShare = () => useShareMutation((body: CallBody<typeof RevokeShare>) => call(RevokeShare, body));
