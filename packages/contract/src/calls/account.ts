import { z } from 'zod';
import { defineCall, EmptyBody } from '../call.js';
import { EMAIL_MAX, PHONE_COUNTRY_CODE } from '../constants.js';
import { TimeZoneSchema } from '../timezone.js';
import { AccountNameSchema, EMAIL_PATTERN, freeText, PasswordSchema, PhoneSchema, required, VerificationCodeSchema } from '../validation.js';
import { ClientKeySchema, LoginResultSchema, SafeSettingSchema } from './auth.js';

/**
 * The account-security flow (§4 "Account security flow", §7.2 Auth calls) and the signed-out account
 * paths (register, reset a forgotten password, phone-code sign-in): issue 17 items 2 and 4.
 *
 * Codes are 4 digits, valid CODE_VALID_MS, single use, stored hashed and dead after CODE_MAX_TRIES wrong
 * tries; a new code for the same address and purpose is refused inside CODE_RESEND_MS. A session that
 * proved its owner (a code to the bound e-mail or phone, or the sign-in password when the account has
 * neither) may change the e-mail, phone and password for VERIFIED_MS; after that those calls answer 1005
 * and the console goes back to the auth page with the 5-minute hint (§8).
 */
export const CODE_VALID_MS = 5 * 60_000;
export const CODE_RESEND_MS = 60_000;
export const CODE_MAX_TRIES = 5;
export const VERIFIED_MS = 5 * 60_000;
/** Codes one address, and one client address, may be sent in an hour. */
export const CODES_PER_ADDRESS_HOUR = 5;
export const CODES_PER_IP_HOUR = 20;

const emailRequired = { error: 'validation.email.required' } as const;
/** An e-mail address that the form asks for (EmailSchema's rule, 'Enter an e-mail address.' when missing). */
export const AddressEmailSchema = z
  .string(emailRequired)
  .trim()
  .min(1, emailRequired)
  .max(EMAIL_MAX, { error: 'validation.email.length' })
  .regex(EMAIL_PATTERN, { error: 'validation.email.invalid' });

/** The country code of a phone: fixed at 86 (§5); absent means 86. */
export const CountryCodeSchema = z.literal(PHONE_COUNTRY_CODE, { error: 'validation.countryCode' }).default(PHONE_COUNTRY_CODE);

/** §3 Security forms: type 1 = e-mail, 2 = phone. */
export const CodeTypeSchema = z.union([z.literal(1), z.literal(2)], { error: 'validation.codeType' });

/** A password typed to prove who one is (sealed): given, and free of hidden characters (the text rule of every free string). */
const TypedPasswordSchema = freeText(required).min(1, required).max(1024, { error: 'validation.tooLong' });
/** A new password: sealed on the wire, opened before the body is checked, so §5's rule applies as to any field. */
const NewPasswordSchema = PasswordSchema;

/** "Code sent" (§8): the address it went to, masked as §9 says, and the seconds before another may be asked. */
export const CodeSentSchema = z.object({ Target: z.string(), ResendSeconds: z.number().int() });
export type CodeSent = z.infer<typeof CodeSentSchema>;

export const Authenticated = defineCall({
  path: '/api/Auth/Authenticated',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.object({ result: z.boolean() }),
  summary: 'Whether this session proved its owner in the last 5 minutes (then the e-mail, phone and password pages open without the auth page).',
});

export const Authenticate = defineCall({
  path: '/api/Auth/authenticate',
  auth: 'session',
  access: 'session',
  body: z.object({ type: CodeTypeSchema, code: VerificationCodeSchema }),
  data: z.null(),
  sealed: ['code'],
  summary: 'Proves the owner with the code sent by GetSecurityAuthCode to the bound e-mail (type 1) or phone (type 2).',
});

export const AuthLoginPwd = defineCall({
  path: '/api/Auth/AuthLoginPwd',
  auth: 'session',
  access: 'session',
  body: z.object({ loginPwd: TypedPasswordSchema }),
  data: z.null(),
  sealed: ['loginPwd'],
  summary: 'Proves the owner with the sign-in password (sealed) when the account has neither e-mail nor phone.',
});

export const GetSecurityAuthCode = defineCall({
  path: '/api/Auth/GetSecurityAuthCode',
  auth: 'session',
  access: 'session',
  body: z.object({ type: CodeTypeSchema }),
  data: CodeSentSchema,
  summary: "Sends a code to the account's bound e-mail (type 1) or phone (type 2).",
});

export const GetNewEmailCode = defineCall({
  path: '/api/Auth/GetNewEmailCode',
  auth: 'session',
  access: 'session',
  body: z.object({ email: AddressEmailSchema }),
  data: CodeSentSchema,
  summary: 'Sends a code to the e-mail address about to be bound (1005 unless the session proved its owner lately).',
});

export const GetNewPhoneCode = defineCall({
  path: '/api/Auth/GetNewPhoneCode',
  auth: 'session',
  access: 'session',
  body: z.object({ countryCode: CountryCodeSchema, phone: PhoneSchema }),
  data: CodeSentSchema,
  summary: 'Sends a code to the phone about to be bound (1005 unless the session proved its owner lately).',
});

export const ModifySafeEmail = defineCall({
  path: '/api/Auth/ModifySafeEmail',
  auth: 'session',
  access: 'session',
  body: z.object({ email: AddressEmailSchema, code: VerificationCodeSchema }),
  data: SafeSettingSchema,
  sealed: ['code'],
  summary: "Binds the e-mail address the code was sent to; answers the account's safe setting.",
});

export const ModifySafePhone = defineCall({
  path: '/api/Auth/ModifySafePhone',
  auth: 'session',
  access: 'session',
  body: z.object({ countryCode: CountryCodeSchema, phone: PhoneSchema, code: VerificationCodeSchema }),
  data: SafeSettingSchema,
  sealed: ['code'],
  summary: "Binds the phone the code was sent to; answers the account's safe setting.",
});

export const ModifyPassword = defineCall({
  path: '/api/Auth/ModifyPassword',
  auth: 'session',
  access: 'session',
  body: z.object({ loginPwd: TypedPasswordSchema, newPwd: NewPasswordSchema }),
  data: z.null(),
  sealed: ['loginPwd', 'newPwd'],
  summary: "Changes the password: the original and the new one, both sealed; the account's other sessions end.",
});

/* ---- signed out ---- */

export const GetRegisterEmailCode = defineCall({
  path: '/api/Auth/GetRegisterEmailCode',
  auth: 'public',
  access: 'public',
  body: z.object({ email: AddressEmailSchema }),
  data: CodeSentSchema,
  summary: 'Sends a registration code to the e-mail address (answered alike whether or not it has an account).',
});

export const GetRegisterPhoneCode = defineCall({
  path: '/api/Auth/GetRegisterPhoneCode',
  auth: 'public',
  access: 'public',
  body: z.object({ countryCode: CountryCodeSchema, phone: PhoneSchema }),
  data: CodeSentSchema,
  summary: 'Sends a registration code to the phone (answered alike whether or not it has an account).',
});

const RegisterFields = {
  userName: AccountNameSchema,
  pwd: NewPasswordSchema,
  code: VerificationCodeSchema,
  timeZone: TimeZoneSchema.optional(),
};

export const EmailRegister = defineCall({
  path: '/api/Auth/EmailRegister',
  auth: 'public',
  access: 'public',
  body: z.object({ email: AddressEmailSchema, ...RegisterFields }),
  data: z.object({ UserName: z.string() }),
  sealed: ['pwd', 'code'],
  summary: 'Registers with the code sent to the e-mail: a new organisation with the registrant as its primary user.',
});

export const PhoneRegister = defineCall({
  path: '/api/Auth/PhoneRegister',
  auth: 'public',
  access: 'public',
  body: z.object({ countryCode: CountryCodeSchema, phone: PhoneSchema, ...RegisterFields }),
  data: z.object({ UserName: z.string() }),
  sealed: ['pwd', 'code'],
  summary: 'Registers with the code sent to the phone: a new organisation with the registrant as its primary user.',
});

/**
 * The account of a forgotten password, named by its e-mail address or phone (never by user name: what
 * answers must not tell whether an account exists, so the answer only masks what was typed).
 */
export const RecoveryAccountSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .max(EMAIL_MAX, { error: 'validation.tooLong' })
  .regex(new RegExp(`^(?:${EMAIL_PATTERN.source.slice(1, -1)}|1[3-9]\\d{9})$`), { error: 'validation.recoveryAccount' });

export const GetAccountSafeSettingByAccount = defineCall({
  path: '/api/Auth/GetAccountSafeSettingByAccount',
  auth: 'public',
  access: 'public',
  body: z.object({ account: RecoveryAccountSchema }),
  data: SafeSettingSchema,
  summary: 'Where a reset code would go for the e-mail or phone typed, masked; the same answer whether or not an account has it.',
});

/**
 * The account a password reset is for, as far as may be said signed out: which kind of address was typed
 * and that address masked (§9). Never the user name, nickname or whether an account has it: the same
 * answer for any address, so the reset page can say whose password it resets without enumeration.
 */
export const SimpleUserSchema = z.object({ Account: z.string(), Kind: z.enum(['email', 'phone']) });
export type SimpleUser = z.infer<typeof SimpleUserSchema>;

export const GetSimpleUserByAccount = defineCall({
  path: '/api/User/GetSimpleUserByAccount',
  auth: 'public',
  access: 'public',
  body: z.object({ account: RecoveryAccountSchema }),
  data: SimpleUserSchema,
  summary: 'The e-mail or phone typed on the reset page, masked, and which kind it is; the same answer whether or not an account has it.',
});

export const GetUnloginSecurityAuthCode = defineCall({
  path: '/api/Auth/GetUnloginSecurityAuthCode',
  auth: 'public',
  access: 'public',
  body: z.object({ account: RecoveryAccountSchema }),
  data: CodeSentSchema,
  summary: 'Sends a password-reset code to the e-mail or phone typed when an account has it; answered alike either way.',
});

export const ResetPassword = defineCall({
  path: '/api/Auth/ResetPassword',
  auth: 'public',
  access: 'public',
  body: z.object({ account: RecoveryAccountSchema, code: VerificationCodeSchema, newPwd: NewPasswordSchema }),
  data: z.null(),
  sealed: ['code', 'newPwd'],
  summary: "Sets a new password (sealed) with the reset code; every session of the account ends and its sign-in lock is lifted.",
});

export const GetLoginPhoneCode = defineCall({
  path: '/api/Auth/GetLoginPhoneCode',
  auth: 'public',
  access: 'public',
  body: z.object({ countryCode: CountryCodeSchema, phone: PhoneSchema }),
  data: CodeSentSchema,
  summary: 'Sends a sign-in code to the phone when an account has it; answered alike either way.',
});

export const PhoneCodeLogin = defineCall({
  path: '/api/Auth/PhoneCodeLogin',
  auth: 'public',
  access: 'public',
  body: z.object({ countryCode: CountryCodeSchema, phone: PhoneSchema, code: VerificationCodeSchema, timeZone: TimeZoneSchema, clientKey: ClientKeySchema }),
  data: LoginResultSchema,
  sealed: ['code'],
  summary: 'Signs in with the code sent to the phone, through the same lockout and session rules as the password.',
});

export const GetRegistration = defineCall({
  path: '/api/Auth/GetRegistration',
  auth: 'public',
  access: 'public',
  body: EmptyBody,
  data: z.object({ Open: z.boolean() }),
  summary: 'Whether this server lets anyone register (REGISTRATION=open|closed): the sign-in page shows the link only then.',
});

