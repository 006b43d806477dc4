import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import { markSignedIn, signInMeta } from '../auth/routes.js';
import type { AuthService } from '../auth/service.js';
import type { AccountService } from './service.js';

/** The account-security flow (§4) and the signed-out account paths: issue 17 items 2 and 4. */
export function accountRoutes(app: FastifyInstance, hooks: CallHooks, accounts: AccountService, auth: AuthService): void {
  registerCall(app, hooks, calls.Authenticated, async ({ caller }) => accounts.authenticated(caller));
  registerCall(app, hooks, calls.Authenticate, async ({ caller, body }) => {
    await accounts.authenticate(caller, body.type, body.code);
    return null;
  });
  registerCall(app, hooks, calls.AuthLoginPwd, async ({ caller, body }) => {
    await accounts.authLoginPwd(caller, body.loginPwd);
    return null;
  });
  registerCall(app, hooks, calls.GetSecurityAuthCode, async ({ caller, body, request }) => accounts.sendSecurityCode(caller, body.type, request.ip));
  registerCall(app, hooks, calls.GetNewEmailCode, async ({ caller, body, request }) =>
    accounts.sendNewAddressCode(caller, { kind: 'email', email: body.email }, request.ip),
  );
  registerCall(app, hooks, calls.GetNewPhoneCode, async ({ caller, body, request }) =>
    accounts.sendNewAddressCode(caller, { kind: 'phone', countryCode: body.countryCode, phone: body.phone }, request.ip),
  );
  registerCall(app, hooks, calls.ModifySafeEmail, async ({ caller, body }) => accounts.bindAddress(caller, { kind: 'email', email: body.email }, body.code));
  registerCall(app, hooks, calls.ModifySafePhone, async ({ caller, body }) =>
    accounts.bindAddress(caller, { kind: 'phone', countryCode: body.countryCode, phone: body.phone }, body.code),
  );
  registerCall(app, hooks, calls.ModifyPassword, async ({ caller, body }) => {
    await accounts.modifyPassword(caller, body.loginPwd, body.newPwd);
    return null;
  });

  registerCall(app, hooks, calls.GetRegistration, async () => ({ Open: accounts.registrationOpen }));
  registerCall(app, hooks, calls.GetRegisterEmailCode, async ({ caller, body, request }) =>
    accounts.sendRegisterCode({ kind: 'email', email: body.email }, caller.lang, request.ip),
  );
  registerCall(app, hooks, calls.GetRegisterPhoneCode, async ({ caller, body, request }) =>
    accounts.sendRegisterCode({ kind: 'phone', countryCode: body.countryCode, phone: body.phone }, caller.lang, request.ip),
  );
  registerCall(app, hooks, calls.EmailRegister, async ({ caller, body }) =>
    accounts.register({ kind: 'email', email: body.email }, body.code, body.userName, body.pwd, caller.lang, body.timeZone),
  );
  registerCall(app, hooks, calls.PhoneRegister, async ({ caller, body }) =>
    accounts.register({ kind: 'phone', countryCode: body.countryCode, phone: body.phone }, body.code, body.userName, body.pwd, caller.lang, body.timeZone),
  );
  registerCall(app, hooks, calls.GetAccountSafeSettingByAccount, async ({ body }) => accounts.safeSettingByAccount(body.account));
  registerCall(app, hooks, calls.GetSimpleUserByAccount, async ({ body }) => accounts.simpleUserByAccount(body.account));
  registerCall(app, hooks, calls.GetUnloginSecurityAuthCode, async ({ caller, body, request }) => accounts.sendResetCode(body.account, caller.lang, request.ip, request.headers.cookie));
  registerCall(app, hooks, calls.ResetPassword, async ({ body, request }) => {
    await accounts.resetPassword(body.account, body.code, body.newPwd, request.headers.cookie);
    return null;
  });
  registerCall(app, hooks, calls.GetLoginPhoneCode, async ({ caller, body, request }) =>
    accounts.sendLoginCode({ kind: 'phone', countryCode: body.countryCode, phone: body.phone }, caller.lang, request.ip, request.headers.cookie),
  );
  // Signs in through the password's lock and session (AuthService.loginWithCode); an unknown phone answers alike.
  registerCall(app, hooks, calls.PhoneCodeLogin, async ({ body, request, reply }) => {
    const address = { kind: 'phone', countryCode: body.countryCode, phone: body.phone } as const;
    const result = await auth.loginWithCode(
      { userId: await accounts.loginHolder(address), lockName: `phone:${body.countryCode}${body.phone}`, timeZone: body.timeZone, clientKey: body.clientKey },
      () => accounts.useLoginCode(address, body.code, request.headers.cookie),
      signInMeta(request),
    );
    return markSignedIn(auth, request, reply, result);
  });
}
