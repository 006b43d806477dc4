import { z } from 'zod';

/** Who may make a call as the transport sees it: anyone (`public`) or a signed-in user (`session`). */
export type CallAccess = 'public' | 'session';

/** The rights a caller may hold on a device (§6): all on their organisation's, a share's own, none but download on an example. */
export const DEVICE_RIGHTS = ['EditDevice', 'EditFix', 'RemoteInstr', 'ShareDevice', 'DownloadData'] as const;
export type DeviceRight = (typeof DEVICE_RIGHTS)[number];

/**
 * What a signed-in caller must hold on what the body names, checked by the call's service (docs/api.md,
 * "Access rules"). The device is named by `imei`, `imeis` or `IMEI`, the folder by `folderId`, `parentId`
 * or (in folder calls) `id`. A device the caller can't see is answered like one that doesn't exist (1002),
 * a right the caller lacks on a device or folder they can see with 1003.
 * - `session`: any signed-in user; the call reads or changes only the caller's own account, own view or
 *   own organisation.
 * - `device read`: every device named is visible to the caller: their organisation's, shared with them
 *   inside the share's window, or an example device while their experience switch is on.
 * - `device right <R>`: visible, and the caller holds right R on it: all on their organisation's, a
 *   share's own rights (never EditFix or ShareDevice), none on an example device but DownloadData.
 * - `device own`: a device of the caller's organisation (folders are the organisation's: a shared
 *   device stays where its owner keeps it).
 * - `folder read`: the folder is the caller's organisation's (or its root '-1'), the experience
 *   folder '0', or the folder of a user who shares devices with the caller ('share-<userId>').
 * - `folder edit`: the folder is the caller's organisation's ('-1', the root, only as a target);
 *   experience and shared folders are read-only (1003), another organisation's don't exist (1002).
 * - `primary`: the caller is their organisation's primary user (IsPrimary; 1003 otherwise); the call reads
 *   or changes only their own organisation (a member of another one named in the body doesn't exist, 1002).
 */
export type SessionRule = 'session' | 'device read' | `device right ${DeviceRight}` | 'device own' | 'folder read' | 'folder edit' | 'primary';
export type AccessRule = 'public' | SessionRule;

export const ACCESS_RULES: readonly AccessRule[] = [
  'public',
  'session',
  'device read',
  ...DEVICE_RIGHTS.map((r) => `device right ${r}` as const),
  'device own',
  'folder read',
  'folder edit',
  'primary',
];

/**
 * A call's access: one rule, or several checked in order (a device moved into a folder: the device,
 * then the folder). `public` only for a `public` call, and only alone.
 */
export type Access<A extends CallAccess = CallAccess> = A extends 'public' ? 'public' : SessionRule | readonly [SessionRule, ...SessionRule[]];

/** The rules of an access, in the order they are checked. */
export function accessRules(access: Access): readonly AccessRule[] {
  return typeof access === 'string' ? [access] : access;
}

export function isAccessRule(value: unknown): value is AccessRule {
  return typeof value === 'string' && (ACCESS_RULES as readonly string[]).includes(value);
}

/** One console call: its path under /prod-api, who may make it, and the schemas of its body and Data. */
export interface CallDef<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType, A extends CallAccess = CallAccess> {
  path: string;
  /** POST (JSON body) for every call but one: GET sends the body's fields as the query string (§7.1). */
  method?: 'POST' | 'GET';
  /** `public` calls need no session (they are still signed with the empty-token key). */
  auth: A;
  /**
   * Who may make the call (AccessRule). Every call of the contract declares it (a test walks them, and
   * the server registers no call without one); optional only for the test doubles of client tests.
   */
  access?: Access<A>;
  body: B;
  data: D;
  /**
   * An upload: the request is multipart (signed over an empty body, `body` is EmptyBody) with these text
   * fields first, checked by `fields`, then these file parts. Declared so that what names the call's
   * subject (a folder, a device) is known to the contract, as a JSON body's fields are.
   */
  multipart?: { fields: z.ZodObject; files: readonly string[] };
  /** Body fields sealed to the server's public key (see wire.ts). */
  sealed?: readonly string[];
  /**
   * The Data (`true`) or this field of the Data is base64 of binary (§7.1 "Data arrives as base64 binary").
   * Encrypted (field-cipher.ts), the bytes themselves are encrypted, not their base64 text, and the web
   * client hands them on as bytes (`callBytes`).
   */
  bytes?: true | string;
  /**
   * A download (§7.1 "Downloads post with a blob response"): a success is answered with the file of this
   * type instead of the envelope, `data` is then z.null(); a refusal is the envelope as for any call.
   */
  download?: { type: string };
  /** 'long' uses the 120 s timeout of §7.1 instead of 30 s. */
  timeout?: 'normal' | 'long';
  summary: string;
}

/**
 * A call's body refuses a field it does not declare (601 naming it, "This call does not take the field
 * x.") instead of dropping it silently: a misspelt optional field would otherwise be lost without a word.
 * Only the body's own level: nested objects keep zod's default.
 */
function strictBody<S extends z.ZodType>(schema: S): S {
  if (schema instanceof z.ZodObject) return schema.strict() as unknown as S;
  if (schema instanceof z.ZodOptional) return strictBody(schema.unwrap() as z.ZodType).optional() as unknown as S;
  if (schema instanceof z.ZodNullable) return strictBody(schema.unwrap() as z.ZodType).nullable() as unknown as S;
  return schema;
}

export function defineCall<B extends z.ZodType, D extends z.ZodType, A extends CallAccess>(def: CallDef<B, D, A>): CallDef<B, D, A> {
  return { ...def, body: strictBody(def.body) };
}

export type CallBody<C> = C extends CallDef<infer B, z.ZodType> ? z.input<B> : never;
export type CallData<C> = C extends CallDef<z.ZodType, infer D> ? z.output<D> : never;

/** Calls without a body accept an absent body or an empty object. */
export const EmptyBody = z.object({}).nullish();

/** A switch: 1 on, 0 off; anything else is refused with validation.onOff. */
export const ZeroOne = z.union([z.literal(0), z.literal(1)], { error: 'validation.onOff' });
