import type { FastifySchemaCompiler } from 'fastify';
import { isMessageKey, type Lang, message } from '@wildtrack/contract';
import type { z } from 'zod';
import { ValidationFailure } from './errors.js';

/** Validates bodies and queries with the contract's zod schemas; failures carry the zod issues. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    return result.success ? { value: result.data } : { error: new ValidationFailure(result.error.issues, httpPart ?? 'body') };
  };

function issueText(lang: Lang, issue: z.core.$ZodIssue): string {
  if (isMessageKey(issue.message)) {
    const params: Record<string, string | number> = {};
    if ('minimum' in issue) params.minimum = String(issue.minimum);
    if ('maximum' in issue) params.maximum = String(issue.maximum);
    return message(lang, issue.message, params);
  }
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? message(lang, 'validation.required')
        : message(lang, 'validation.invalidType', { expected: issue.expected });
    case 'too_small':
      return message(lang, issue.origin === 'string' || issue.origin === 'array' ? 'validation.tooShort' : 'validation.tooSmall', {
        minimum: String(issue.minimum),
      });
    case 'too_big':
      return message(lang, issue.origin === 'string' || issue.origin === 'array' ? 'validation.tooLong' : 'validation.tooBig', {
        maximum: String(issue.maximum),
      });
    case 'unrecognized_keys':
      return message(lang, 'validation.unknownKeys', { keys: issue.keys.join(', ') });
    default:
      return message(lang, 'validation.invalidValue');
  }
}

/** "account: is required" in the caller's language, and the path of the field. */
export function describeValidation(lang: Lang, failure: ValidationFailure): { text: string; field: string } {
  const issue = failure.issues[0];
  if (!issue) return { text: message(lang, 'validation.invalidValue'), field: '' };
  const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
  const last = [...issue.path].reverse().find((p) => typeof p === 'string');
  const labelKey = `field.${String(last ?? '')}`;
  const label = last === undefined ? message(lang, 'validation.body') : isMessageKey(labelKey) ? message(lang, labelKey) : field;
  return { text: message(lang, 'validation.field', { field: label, message: issueText(lang, issue) }), field };
}
