import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateMember, GetMemberList, ModifyTemporaryPassword, ResetMemberPassword, SetMemberEnabled, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';

const MEMBERS = ['members'] as const;

/** The organisation's accounts (primary user only), times in the user's zone. */
export function useMemberList(zone: string, enabled: boolean) {
  return useQuery({
    queryKey: [...MEMBERS, zone],
    queryFn: ({ signal }) => call(GetMemberList, { timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled,
  });
}

/** Member changes: each refreshes the list it changed. */
function useMemberMutation<B, D>(send: (body: B) => Promise<D>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => void client.invalidateQueries({ queryKey: MEMBERS }) });
}

export const useCreateMember = () => useMemberMutation((body: CallBody<typeof CreateMember>) => call(CreateMember, body));
export const useSetMemberEnabled = () => useMemberMutation((body: CallBody<typeof SetMemberEnabled>) => call(SetMemberEnabled, body));
export const useResetMemberPassword = () => useMemberMutation((body: CallBody<typeof ResetMemberPassword>) => call(ResetMemberPassword, body));

/** The change a temporary password asks for (both passwords sealed by the client, ModifyTemporaryPassword.sealed). */
export function useModifyTemporaryPassword() {
  return useMutation({ mutationFn: (body: CallBody<typeof ModifyTemporaryPassword>) => call(ModifyTemporaryPassword, body) });
}
