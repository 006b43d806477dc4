import { type Lang, parseOffset } from '@wildtrack/contract';

/** A live session: which session, which user, which organisation. */
export interface SessionInfo {
  sessionId: number;
  userId: number;
  orgId: number;
}

/** A session with what every call needs to know of its user, read with the session in one lookup. */
export interface SignedIn extends SessionInfo {
  /** The user's time-zone setting. */
  timeZone: string;
  orgName: string;
  /** The user's password is a temporary one: only the calls of CALLS_WHILE_PASSWORD_CHANGE_DUE are served. */
  mustChangePassword?: boolean;
}

/**
 * The session a signed request names (`x-session`), as the signature check found it: its signing key,
 * when it was last seen, and what the caller is built from. Idleness is checked after the signature.
 */
export interface Signer extends SignedIn {
  /** HMAC-SHA256(token, "wildtrack-request-signing-v1"): the key the session's requests are signed with. */
  key: Buffer;
  lastSeenAt: number;
}

/** Who is calling a `public` call: only the language of the answer is known. */
export interface PublicCaller {
  lang: Lang;
}

/** Who is calling a `session` call, resolved once by the transport (registerCall) and handed to the handler. */
export interface Caller extends PublicCaller {
  session: SessionInfo;
  /** The caller's time zone: the call's `timeZone` when it is one of the offered zones, else the user's setting. */
  zone: string;
  orgName: string;
}

/** The one fallback of the caller's time zone. */
export function callerZone(requested: unknown, userZone: string): string {
  return typeof requested === 'string' && requested !== '' && parseOffset(requested) !== null ? requested : userZone;
}

export function callerOf(signedIn: SignedIn, lang: Lang, requestedZone?: unknown): Caller {
  const { timeZone, orgName, mustChangePassword: _, ...session } = signedIn;
  return { session, lang, zone: callerZone(requestedZone, timeZone), orgName };
}
