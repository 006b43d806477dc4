import { formSentence } from '@wildtrack/contract';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { getLang } from '../i18n/language';

/**
 * An antd form rule from one of the contract's zod schemas. The message is the sentence the server would
 * answer for the same fault, from the contract's one table (field-messages.ts): "Enter the account." /
 * "请输入账号。" for a missing value, "The map-service key may hold only letters and digits." /
 * "地图服务密钥只能包含字母和数字。" for a rule, in the interface language. `fieldKey` names the field
 * as the contract labels it (`field.account`); `t` is kept for the callers' convenience.
 */
export function zodRule(schema: z.ZodType, _t: TFunction, fieldKey: string): Rule {
  const field = fieldKey.replace(/^field\./, '');
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value ?? '', { reportInput: true });
      if (result.success) return;
      throw new Error(formSentence(getLang(), field, value, result.error.issues[0]));
    },
  };
}
