import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GetAccountSetting, SetAccountSetting, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { rememberTimeZone } from '../../../lib/session';

/**
 * The settings as the dialog edits them: read afresh at every opening (the maps keep the same query
 * for the key, with a longer stale time), so the form never starts from another tab's old values.
 */
export function useAccountSetting() {
  return useQuery({
    queryKey: queryKeys.accountSetting,
    queryFn: ({ signal }) => call(GetAccountSetting, undefined, { loading: false, repeatCheck: false, signal }),
    refetchOnMount: 'always',
  });
}

export type AccountSettingBody = CallBody<typeof SetAccountSetting>;

/**
 * Saves the settings form. The maps read the key from the account-setting query, so it is invalidated
 * and they draw the national layers with the new key at once. A new zone becomes the session's zone
 * (the header label and every time shown follow it) and is kept as this browser's choice for 30 days:
 * it wins over the zone the server holds (which another device may have set), and the next sign-in
 * sends it instead of the browser's.
 */
export function useSaveAccountSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountSettingBody) => call(SetAccountSetting, body),
    onSuccess: (_data, { timeZone }) => {
      // Saved from this browser's form: this browser's choice, whatever another device signs in with.
      if (timeZone) rememberTimeZone(timeZone);
      return Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.accountSetting }),
        client.invalidateQueries({ queryKey: queryKeys.userInfo }),
      ]);
    },
  });
}
