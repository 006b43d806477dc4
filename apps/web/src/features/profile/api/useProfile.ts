import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ModifyInfo, SubmitAdvice, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { refreshStoredUser } from '../../../lib/session';

/**
 * Saves the user-info form (User/ModifyInfo). The answer is the user as stored: the header's nickname and
 * avatar (kept in the browser, §3) change at once, and the cached user info takes it so it does not
 * write the old values back.
 */
export function useModifyInfo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<typeof ModifyInfo>) => call(ModifyInfo, body),
    onSuccess: (user) => {
      refreshStoredUser(user);
      client.setQueryData(queryKeys.userInfo, user);
    },
  });
}

/** Sends the feedback form (Advice/Submit). */
export function useSubmitAdvice() {
  return useMutation({ mutationFn: (body: CallBody<typeof SubmitAdvice>) => call(SubmitAdvice, body) });
}
