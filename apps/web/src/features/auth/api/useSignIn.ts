import { useMutation } from '@tanstack/react-query';
import { LanguageId, ModifyLcid, PasswordLogin, type LoginResult } from '@wildtrack/contract';
import { getLang } from '../../../i18n';
import { call } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { markMustChangePassword, markSafetyPrompt, signInTimeZone, storeLoginResult } from '../../../lib/session';

export interface SignInValues {
  account: string;
  pwd: string;
}

/** §7.2 PasswordLogin sends the time zone the user chose earlier (30 days), else the browser's. */
export { signInTimeZone };

/** The account must be secured when it has neither e-mail nor phone (§4 Safety prompt). */
export function needsSafetyPrompt(result: LoginResult): boolean {
  const { Email, Phone } = result.User.SafeSetting;
  return !Email.trim() && !Phone.trim();
}

/**
 * Signs in: the password is sealed by the client (PasswordLogin.sealed), the token and the user's values
 * are kept, and the server learns the language chosen on the sign-in page. Failures (wrong password,
 * locked account) are shown by the client with the server's message.
 */
export function useSignIn(onSignedIn: (result: LoginResult) => void) {
  return useMutation({
    mutationFn: (values: SignInValues) =>
      call(PasswordLogin, { account: values.account.trim(), pwd: values.pwd, timeZone: signInTimeZone() }),
    onSuccess: (result) => {
      queryClient.clear();
      storeLoginResult(result);
      markSafetyPrompt(needsSafetyPrompt(result));
      markMustChangePassword(result.MustChangePassword);
      const lcid = LanguageId[getLang()];
      if (result.User.Lcid !== lcid) {
        call(ModifyLcid, { lcid }, { loading: false }).catch(() => {
          // reported by the client; the session language still applies to every request (x-lang)
        });
      }
      onSignedIn(result);
    },
  });
}
