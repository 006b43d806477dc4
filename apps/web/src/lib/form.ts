import { isMessageKey, MESSAGES } from '@wildtrack/contract';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { getLang } from '../i18n/language';

/**
 * Whether a contract message is a predicate that needs the field as its subject ("must be at most 40
 * long", "may hold only letters and digits"), told by its English text; the others are sentences of
 * their own ("enter a folder name", "the end time must not be before the start time").
 */
const PREDICATE = /^(must|is|has|may|contains|should|needs)\b/;
function isPredicate(key: string): boolean {
  return isMessageKey(key) && PREDICATE.test(MESSAGES[key].en);
}

const GENERIC_EMPTY = new Set(['validation.required', 'validation.tooShort', 'validation.invalidType', 'validation.invalidValue']);

const capitalise = (text: string): string => text.charAt(0).toLocaleUpperCase() + text.slice(1);
const stop = (text: string): string => (/[.!?。！？]$/.test(text) ? text : `${text}.`);

/**
 * A field's validation message as a sentence in the interface language: "Enter the account" (请输入账号)
 * for a missing value, "Map-service key may hold only letters and digits." (地图服务密钥只能包含字母和数字)
 * for a predicate, and a message that is a sentence already as it is, capitalised.
 */
export function fieldSentence(t: TFunction, fieldKey: string, messageKey: string, params: Record<string, unknown> = {}): string {
  const field = t(fieldKey, { ns: 'contract' });
  const zh = getLang() === 'zh';
  if (messageKey === 'validation.required') return t('form.enterField', { field });
  const text = t(messageKey, { ns: 'contract', ...params });
  if (zh) return isPredicate(messageKey) ? `${field}${text}` : text;
  return stop(capitalise(isPredicate(messageKey) ? `${field} ${text}` : text));
}

/**
 * An antd form rule from one of the contract's zod schemas: the schema's message keys translated
 * through the `contract` namespace, as a sentence naming the field (fieldSentence).
 */
export function zodRule(schema: z.ZodType, t: TFunction, fieldKey: string): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value ?? '');
      if (result.success) return;
      const issue = result.error.issues[0];
      // An empty value refused by a generic rule (a minimum length, a type) is a missing value: "Enter …";
      // a schema's own message for it ("enter a folder name") is kept.
      const empty = value === undefined || value === null || value === '';
      const own = issue?.message ?? 'validation.invalidValue';
      const key = empty && (!isMessageKey(own) || GENERIC_EMPTY.has(own)) ? 'validation.required' : own;
      const params: Record<string, unknown> = {};
      if (issue && 'minimum' in issue) params.minimum = String(issue.minimum);
      if (issue && 'maximum' in issue) params.maximum = String(issue.maximum);
      throw new Error(fieldSentence(t, fieldKey, key, params));
    },
  };
}
