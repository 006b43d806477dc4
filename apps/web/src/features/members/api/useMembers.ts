import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateMember, GetMemberList, ModifyTemporaryPassword, ResetMemberPassword, SetMemberEnabled, temporaryPassword, type CallBody, type Member } from '@wildtrack/contract';
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

/** A whole number in [0, n) from crypto.getRandomValues, without modulo bias. */
function randomBelow(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const word = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(word);
    if (word[0]! < limit) return word[0]! % n;
  }
}

/** A new temporary password made here, in the primary user's browser (§5's rule, see the contract). */
export const makeTemporaryPassword = (): string => temporaryPassword(randomBelow);

/** An account given a temporary password: the password this browser made and sent sealed, shown once; the answer carries none. */
export interface TemporaryPassword {
  member: Member;
  password: string;
}

type WithoutPassword<B> = Omit<B, 'tempPwd'>;

export const useCreateMember = () =>
  useMemberMutation(async (body: WithoutPassword<CallBody<typeof CreateMember>>): Promise<TemporaryPassword> => {
    const password = makeTemporaryPassword();
    return { member: (await call(CreateMember, { ...body, tempPwd: password })).Member, password };
  });
export const useSetMemberEnabled = () => useMemberMutation((body: CallBody<typeof SetMemberEnabled>) => call(SetMemberEnabled, body));
export const useResetMemberPassword = () =>
  useMemberMutation(async (body: WithoutPassword<CallBody<typeof ResetMemberPassword>>): Promise<TemporaryPassword> => {
    const password = makeTemporaryPassword();
    return { member: (await call(ResetMemberPassword, { ...body, tempPwd: password })).Member, password };
  });

/** The change a temporary password asks for (both passwords sealed by the client, ModifyTemporaryPassword.sealed). */
export function useModifyTemporaryPassword() {
  return useMutation({ mutationFn: (body: CallBody<typeof ModifyTemporaryPassword>) => call(ModifyTemporaryPassword, body) });
}
