/**
 * Why a call did not return data. `notified` tells the UI whether the client already showed the user a
 * message (§8), so screens show an error state without repeating the toast.
 */
export type ApiErrorKind =
  /** A refusal code (500, 601 or another non-success code); `code` and `msg` hold it. */
  | 'code'
  /** 1004: the session ended; the client signed out and went to /login. */
  | 'session'
  /** 1005/1006/1007 through `call()`; `callReply()` returns these as data instead. */
  | 'silent'
  | 'network'
  | 'timeout'
  /** A non-2xx HTTP status; `status` holds it. */
  | 'http'
  /** The reply was not an envelope, or its Data did not match the contract. */
  | 'bad-reply'
  /** Aborted by the caller, or refused locally (no token, sign-in while signed in). Ignored (§8). */
  | 'cancelled'
  /** The same call with the same body within 400 ms (§5 Duplicate submission). Silent. */
  | 'duplicate';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly info: { code?: number; status?: number; msg?: string; data?: unknown; notified: boolean },
  ) {
    super(message);
  }

  get code(): number | undefined {
    return this.info.code;
  }

  get notified(): boolean {
    return this.info.notified;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Errors that must not surface at all: cancelled and dropped duplicate requests. */
export function isIgnorable(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'cancelled' || error.kind === 'duplicate');
}
