import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { z } from 'zod';

/**
 * An antd form rule from one of the contract's zod schemas: the schema's message keys are translated
 * through the `contract` namespace, prefixed with the field's name ("账号：不能为空").
 */
export function zodRule(schema: z.ZodType, t: TFunction, fieldKey: string): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value ?? '');
      if (result.success) return;
      const key = result.error.issues[0]?.message ?? 'validation.invalidValue';
      const text = t(key, { ns: 'contract' });
      throw new Error(t('validation.field', { ns: 'contract', field: t(fieldKey, { ns: 'contract' }), message: text }));
    },
  };
}
