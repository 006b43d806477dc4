export { GetPublicKey, PasswordLogin, GetAccountSafeSetting, Heartbeat } from './auth.js';
export { Exit, ModifyLcid, GetAccountSetting, GetUserInfo } from './user.js';
