import { z } from 'zod';

/**
 * Envelope codes (§8). 1000 is success; 1004 ends the session; 1005–1007 are returned to the caller as
 * data (verification flows); 500 is an unexpected server error; 601 a validation warning. Every other
 * code is an application refusal shown as a warning with the server's message.
 */
export const Code = {
  Success: 1000,
  Failed: 1001,
  NotFound: 1002,
  Forbidden: 1003,
  SessionExpired: 1004,
  VerificationExpired: 1005,
  VerificationRequired: 1006,
  VerificationFailed: 1007,
  SignInFailed: 1010,
  AccountLocked: 1011,
  /** Too many sign-in calls from one client address in a minute. */
  TooManyRequests: 1012,
  BadSignature: 1020,
  Replayed: 1021,
  StaleTimestamp: 1022,
  BadCiphertext: 1023,
  /** A signed-in request's encrypted body (docs/api.md "Encrypted bodies and answers") did not open, or came in clear. */
  BadEncryption: 1024,
  TooLarge: 1030,
  UnknownPath: 1031,
  BadJson: 1032,
  /** A store every server process shares (Redis) does not answer: nothing was done, try again shortly (HTTP 503). */
  Unavailable: 1040,
  ServerError: 500,
  Invalid: 601,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** Codes the client hands back to the caller as normal data, without a notification (§8). */
export const SILENT_CODES: readonly number[] = [
  Code.VerificationExpired,
  Code.VerificationRequired,
  Code.VerificationFailed,
];

export interface Envelope<T> {
  Code: number;
  Msg: string;
  Data: T;
}

/** The one way an envelope is built (server answers and refusals; web test doubles). */
export function envelope<T>(code: number, msg: string, data: T): Envelope<T> {
  return { Code: code, Msg: msg, Data: data };
}

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ Code: z.number().int(), Msg: z.string(), Data: data });
}

/** Data of a refusal: the request id (for 500) and, for 601, the path of the first failing field. */
export const ErrorDataSchema = z
  .object({ RequestId: z.string().optional(), Field: z.string().optional() })
  .nullable();
export type ErrorData = z.infer<typeof ErrorDataSchema>;
