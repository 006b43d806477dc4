import type { z } from 'zod';
import { Code, type FieldPath, fieldPathText, type MessageKey } from '@wildtrack/contract';

/**
 * An application outcome other than success: a code of the envelope, a message key of the contract's
 * catalogue with its parameters, and the HTTP status (200 for application outcomes, §7.1).
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly messageKey: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly httpStatus = 200,
    readonly data: Record<string, unknown> | null = null,
  ) {
    super(messageKey);
    this.name = 'AppError';
  }
}

/**
 * A field refused by a service's own rule (a time the schema can't judge, a picture of another
 * organisation): 601 with the fault as a sentence naming the field, as a schema's refusal reads
 * (`key` a `validation.*` sentence of the contract, its `{field}` filled in the caller's language).
 */
export class FieldRefusal extends AppError {
  constructor(
    readonly path: FieldPath,
    messageKey: MessageKey,
    params: Record<string, string | number> = {},
  ) {
    super(Code.Invalid, messageKey, params, 200, { Field: fieldPathText(path) });
    this.name = 'FieldRefusal';
  }
}

export const forbidden = () => new AppError(Code.Forbidden, 'error.forbidden');
export const sessionExpired = () => new AppError(Code.SessionExpired, 'error.sessionExpired');

/** A body or query that failed its contract schema; the error handler answers 601 naming the field. */
export class ValidationFailure extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly source: string,
  ) {
    super('validation failed');
    this.name = 'ValidationFailure';
  }
}
