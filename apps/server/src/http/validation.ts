import type { FastifySchemaCompiler } from 'fastify';
import { describeIssues, type Lang } from '@wildtrack/contract';
import type { z } from 'zod';
import { ValidationFailure } from './errors.js';

/** Validates bodies and queries with the contract's zod schemas; failures carry the zod issues. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    return result.success ? { value: result.data } : { error: new ValidationFailure(result.error.issues, httpPart ?? 'body') };
  };

/**
 * The first fault of a refused body as a sentence naming the field in the caller's language ("Enter the
 * account.", "账号最多 64 个字符。"), from the contract's table (field-messages.ts), and the field's path.
 */
export function describeValidation(lang: Lang, failure: ValidationFailure): { text: string; field: string } {
  return describeIssues(lang, failure.issues);
}
