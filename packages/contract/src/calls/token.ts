import { z } from 'zod';
import { defineCall, EmptyBody } from '../call.js';
import { freeText, required } from '../validation.js';

/**
 * Personal access tokens (issue 29): a user's read-only keys for scripts. A token reads, on its user's
 * behalf, exactly what the console would let them read, through Movebank's direct-read protocol at
 * GET /movebank/service/direct-read (HTTP Basic: the user name and the token; docs/api.md "Read API").
 * It makes no console call and changes nothing. The secret is answered once, by the call that makes it;
 * the server keeps only its hash, so a lost token is revoked and a new one made.
 */

/** Most tokens a user keeps that are neither revoked nor expired. */
export const PERSONAL_TOKEN_MAX = 20;
/** The longest expiry offered, in days (ten years); none: the token does not expire. */
export const PERSONAL_TOKEN_MAX_DAYS = 3650;
/** The expiries the console offers, in days (0: never). */
export const PERSONAL_TOKEN_EXPIRY_CHOICES = [7, 30, 90, 365, 0] as const;
/** How many direct-read requests one token may make a minute; past it, 429 with Retry-After. */
export const PERSONAL_TOKEN_RATE_PER_MINUTE = 60;
/** The direct-read path (Movebank's, so that move2 and other Movebank clients read it unchanged). */
export const DIRECT_READ_PATH = '/movebank/service/direct-read';

export const PersonalTokenNameSchema = freeText(required)
  .trim()
  .min(1, required)
  .max(60, { error: 'validation.tooLong' });

/** A token's state now: usable, past its expiry, or revoked by its user. */
export const PERSONAL_TOKEN_STATES = ['active', 'expired', 'revoked'] as const;
export type PersonalTokenState = (typeof PERSONAL_TOKEN_STATES)[number];

export const PersonalTokenSchema = z.object({
  IdStr: z.string(),
  Name: z.string(),
  /** The secret's last characters, so its user can tell tokens apart. */
  Hint: z.string(),
  /** Times in the caller's zone, 'YYYY-MM-DD HH:mm:ss'; ExpireTime '' never expires, LastUsedTime '' never used. */
  CreateTime: z.string(),
  ExpireTime: z.string(),
  LastUsedTime: z.string(),
  RevokeTime: z.string(),
  State: z.enum(PERSONAL_TOKEN_STATES),
});
export type PersonalToken = z.infer<typeof PersonalTokenSchema>;

export const CreatePersonalToken = defineCall({
  path: '/api/PersonalToken/Create',
  auth: 'session',
  access: 'session',
  body: z.object({
    /** What the token is for (a script, a computer): its name in the list. */
    purpose: PersonalTokenNameSchema,
    /** Days until it stops working; absent or 0: never. */
    expiresInDays: z
      .number({ error: 'validation.invalidValue' })
      .int({ error: 'validation.invalidValue' })
      .min(0, { error: 'validation.invalidValue' })
      .max(PERSONAL_TOKEN_MAX_DAYS, { error: 'validation.invalidValue' })
      .optional(),
  }),
  data: PersonalTokenSchema.extend({
    /** The secret, answered this once: the server keeps only its hash. */
    Secret: z.string(),
  }),
  summary: 'Makes a read-only personal access token for the caller (name, optional expiry in days) and answers its secret, once.',
});

export const GetPersonalTokenList = defineCall({
  path: '/api/PersonalToken/GetList',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.object({ List: z.array(PersonalTokenSchema) }),
  summary: 'The caller\'s personal access tokens, newest first, without their secrets.',
});

export const RevokePersonalToken = defineCall({
  path: '/api/PersonalToken/Revoke',
  auth: 'session',
  access: 'session',
  body: z.object({ id: z.string(required).regex(/^\d{1,18}$/, { error: 'validation.format' }) }),
  data: z.null(),
  summary: 'Revokes one of the caller\'s personal access tokens: it reads nothing from then on (another user\'s token does not exist, 1002).',
});
