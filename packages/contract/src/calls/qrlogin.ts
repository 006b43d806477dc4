import { z } from 'zod';
import { defineCall, EmptyBody } from '../call.js';
import { TimeZoneSchema } from '../timezone.js';
import { required } from '../validation.js';
import { ClientKeySchema, LoginResultSchema } from './auth.js';

/**
 * QR sign-in (issue 17 item 4, §7.2 GetLoginQRCode / QRCodeLogin). The waiting sign-in page asks for a
 * code and shows it as a QR code of a console link (`/qr-login?code=…`); a console signed in elsewhere (a
 * phone) opens the link, sees which browser asks, and confirms or declines; the waiting page polls
 * QRCodeLogin and, once confirmed, gets a session of the confirming user, its token sealed to the poll's
 * clientKey as PasswordLogin's is. A code is single use and valid QR_LOGIN_VALID_MS.
 *
 * The code is what the QR shows, so whoever sees the screen has it; polling also needs the ticket, which
 * only the page that asked for the code got: a photo of the QR code can confirm a sign-in, never receive it.
 */
export const QR_LOGIN_VALID_MS = 2 * 60_000;
/** How often the waiting page asks (under the sign-in rate limit of 60 public calls a minute per address). */
export const QR_LOGIN_POLL_MS = 3_000;

/** 32 random bytes, base64url: the QR's code and the waiting page's ticket. */
export const QrSecretSchema = z
  .string(required)
  .min(1, required)
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'validation.qrCode' });

export const GetLoginQRCode = defineCall({
  path: '/api/Auth/GetLoginQRCode',
  auth: 'public',
  access: 'public',
  body: EmptyBody,
  data: z.object({
    /** Goes into the QR code's link. */
    Code: z.string(),
    /** Kept by the waiting page: QRCodeLogin needs it besides the code. */
    Ticket: z.string(),
    /** Seconds the code is valid from now. */
    ExpiresIn: z.number().int(),
  }),
  summary: 'A single-use sign-in code for a QR code (valid 2 minutes), and the ticket the waiting page polls with.',
});

/** Where a QR sign-in stands: asked, its link opened by a signed-in console, confirmed, declined. */
export const QrLoginStatusSchema = z.enum(['Waiting', 'Scanned', 'Confirmed', 'Declined']);
export type QrLoginStatus = z.infer<typeof QrLoginStatusSchema>;

export const QRCodeLogin = defineCall({
  path: '/api/Auth/QRCodeLogin',
  auth: 'public',
  access: 'public',
  body: z.object({ code: QrSecretSchema, ticket: QrSecretSchema, timeZone: TimeZoneSchema, clientKey: ClientKeySchema }),
  data: z.union([z.object({ Status: z.enum(['Waiting', 'Scanned']) }), LoginResultSchema.extend({ Status: z.literal('Confirmed') })]),
  sealed: ['code', 'ticket'],
  summary:
    "The waiting page's poll: Waiting or Scanned until the code is confirmed, then the confirming user's session (token sealed to clientKey), once; refused when declined, expired or used.",
});

/** What the confirming console is shown of the sign-in it is asked to allow. */
export const QrLoginRequestSchema = z.object({
  /** The browser that shows the QR code, as its User-Agent says. */
  UserAgent: z.string(),
  /** The address it asked from. */
  Ip: z.string(),
  /** When it asked (epoch ms). */
  CreatedAt: z.number().int(),
  ExpiresIn: z.number().int(),
  /** The account the sign-in would open: the confirming caller's own. */
  UserName: z.string(),
});

export const GetQRCodeLoginRequest = defineCall({
  path: '/api/Auth/GetQRCodeLoginRequest',
  auth: 'session',
  access: 'session',
  body: z.object({ code: QrSecretSchema }),
  data: QrLoginRequestSchema,
  sealed: ['code'],
  summary: 'Which browser asks to sign in with the scanned code (the waiting page then shows Scanned); refused when expired or used.',
});

export const ConfirmQRCodeLogin = defineCall({
  path: '/api/Auth/ConfirmQRCodeLogin',
  auth: 'session',
  access: 'session',
  body: z.object({ code: QrSecretSchema, accept: z.boolean(required) }),
  data: z.null(),
  sealed: ['code'],
  summary: "Allows (accept true) the scanned code's sign-in as the caller's account, or declines it; once, before it expires.",
});
