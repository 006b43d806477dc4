import { useMutation } from '@tanstack/react-query';
import { LanguageId, ModifyLcid, PasswordLogin, PhoneCodeLogin, type LoginResult } from '@wildtrack/contract';
import { getLang } from '../../../i18n';
import { call } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { markMustChangePassword, markSafetyPrompt, signInTimeZone, storeLoginResult } from '../../../lib/session';

export interface SignInValues {
  account: string;
  pwd: string;
}

/** The phone-code sign-in: a phone (+86) and the code GetLoginPhoneCode sent to it. */
export interface PhoneSignInValues {
  phone: string;
  code: string;
}

/** §7.2 PasswordLogin sends the time zone the user chose earlier (30 days), else the browser's. */
export { signInTimeZone };

/** The account must be secured when it has neither e-mail nor phone (§4 Safety prompt). */
export function needsSafetyPrompt(result: LoginResult): boolean {
  const { Email, Phone } = result.User.SafeSetting;
  return !Email.trim() && !Phone.trim();
}

/**
 * Signs in with a password or a phone code: the password or code is sealed by the client (the call's
 * `sealed`), the token and the user's values
 * are kept, and the server learns the language chosen on the sign-in page. Failures (wrong password,
 * locked account) are shown by the client with the server's message.
 */
export function useSignIn(onSignedIn: (result: LoginResult) => void) {
  return useMutation({
    mutationFn: (values: SignInValues | PhoneSignInValues) =>
      'pwd' in values
        ? call(PasswordLogin, { account: values.account.trim(), pwd: values.pwd, timeZone: signInTimeZone() })
        : call(PhoneCodeLogin, { countryCode: '86', phone: values.phone.trim(), code: values.code.trim(), timeZone: signInTimeZone() }),
    onSuccess: (result) => {
      keepSignIn(result);
      onSignedIn(result);
    },
  });
}

/**
 * What every sign-in path does with its login result (password, phone code, QR code): the token and the
 * user's values are kept, the safety prompt and a due password change marked, and the server learns the
 * language chosen on the sign-in page.
 */
export function keepSignIn(result: LoginResult): void {
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
}
