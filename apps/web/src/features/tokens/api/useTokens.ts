import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreatePersonalToken, GetPersonalTokenList, RevokePersonalToken, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';

const TOKENS = ['personal-tokens'] as const;

/** The user's personal access tokens (times in the user's zone, which the server reads from the session). */
export function useTokenList(enabled: boolean) {
  return useQuery({
    queryKey: TOKENS,
    queryFn: ({ signal }) => call(GetPersonalTokenList, {}, { loading: false, repeatCheck: false, signal }),
    enabled,
  });
}

function useTokenMutation<B, D>(send: (body: B) => Promise<D>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => void client.invalidateQueries({ queryKey: TOKENS }) });
}

/** Makes a token; the answer carries its secret, this once. */
export const useCreateToken = () => useTokenMutation((body: CallBody<typeof CreatePersonalToken>) => call(CreatePersonalToken, body));
export const useRevokeToken = () => useTokenMutation((body: CallBody<typeof RevokePersonalToken>) => call(RevokePersonalToken, body));
