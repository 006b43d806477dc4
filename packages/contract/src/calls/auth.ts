import { z } from 'zod';
import { defineCall, EmptyBody, ZeroOne } from '../call.js';
import { TimeZoneSchema } from '../timezone.js';
import { freeText, required } from '../validation.js';

export const RightsSchema = z.object({
  EditDevice: z.boolean(),
  EditFix: z.boolean(),
  RemoteInstr: z.boolean(),
  ShareDevice: z.boolean(),
  DownloadData: z.boolean(),
});
export type Rights = z.infer<typeof RightsSchema>;

/**
 * The permission set of the login result (§3 leaves its content open): the rights the user holds on
 * the devices of their own organisation, and whether they are the organisation's primary user.
 * Devices shared with the user carry their own rights on each tree node.
 */
export const PermissionSetSchema = z.object({
  IsPrimary: z.boolean(),
  OwnDevices: RightsSchema,
});
export type PermissionSet = z.infer<typeof PermissionSetSchema>;

export const SafeSettingSchema = z.object({
  CountryCode: z.string(),
  Phone: z.string(),
  Email: z.string(),
  PasswordOnly: z.boolean(),
});
export type SafeSetting = z.infer<typeof SafeSettingSchema>;

export const UserSchema = z.object({
  UserId: z.number().int(),
  UserIdStr: z.string(),
  UserName: z.string(),
  NickName: z.string(),
  CustomerId: z.number().int(),
  CustomerIdStr: z.string(),
  CustomerName: z.string(),
  ParentUnit: z.string(),
  IsPrimary: z.boolean(),
  FixTag: z.enum(['DEFAULT', 'CHANNEL']),
  TelephoneCode: z.string(),
  Phone: z.string(),
  EMail: z.string(),
  ImgUrl: z.string(),
  ExperienceFunc: ZeroOne,
  Company: z.string(),
  Lcid: z.union([z.literal(2052), z.literal(1033)]),
  TimeZone: z.string(),
  SafeSetting: SafeSettingSchema,
});
export type User = z.infer<typeof UserSchema>;

export const PublicKeyDataSchema = z.object({
  Algorithm: z.literal('X25519-HKDF-SHA256-XChaCha20Poly1305'),
  PublicKey: z.string(),
});

export const GetPublicKey = defineCall({
  path: '/api/Auth/GetPublicKey',
  auth: 'public',
  access: 'public',
  body: EmptyBody,
  data: PublicKeyDataSchema,
  summary: 'The server public key that passwords in bodies are sealed to.',
});

/** Base64 of 32 bytes (an X25519 public key): 43 characters, the last holding 4 bits, then `=`. */
const PUBLIC_KEY_BASE64 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/**
 * The X25519 public key (base64, 32 bytes) the client made for this one call: a token in the answer is
 * sealed to it (docs/api.md, "Sealed tokens"). Every call whose Data carries a Token has this field.
 */
export const ClientKeySchema = z.string(required).regex(PUBLIC_KEY_BASE64, { error: 'validation.clientKey' });

export const PasswordLoginBody = z.object({
  account: freeText(required).trim().min(1, required).max(64, { error: 'validation.tooLong' }),
  pwd: freeText(required).min(1, required).max(1024, { error: 'validation.tooLong' }),
  timeZone: TimeZoneSchema,
  clientKey: ClientKeySchema,
});

export const LoginResultSchema = z.object({
  /** The session token sealed to the body's clientKey for this request code (`wt1.…`); never in clear. */
  Token: z.string(),
  /** The session's id: not secret, sent as `x-session` on every signed-in request. */
  SessionId: z.string(),
  UserName: z.string(),
  ExperienceFunc: ZeroOne,
  Permissions: PermissionSetSchema,
  /** True when the stored password no longer meets §5's rule: the shell suggests a change. */
  WeakPassword: z.boolean(),
  /** The password is a temporary one the primary user set: ModifyTemporaryPassword before anything else. */
  MustChangePassword: z.boolean().default(false),
  User: UserSchema,
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const PasswordLogin = defineCall({
  path: '/api/Auth/PasswordLogin',
  auth: 'public',
  access: 'public',
  body: PasswordLoginBody,
  data: LoginResultSchema,
  sealed: ['pwd'],
  summary: 'Sign in with user name or e-mail and a sealed password; the token comes back sealed to clientKey.',
});

export const GetAccountSafeSetting = defineCall({
  path: '/api/Auth/GetAccountSafeSetting',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: SafeSettingSchema,
  summary: 'The e-mail and phone that secure the account (empty strings when none).',
});

export const Heartbeat = defineCall({
  path: '/api/Auth/Heartbeat',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.object({ ServerTime: z.number().int() }),
  summary: 'An authenticated no-op: keeps the session alive and tells whether it still is.',
});
