import { CODE_COUNTDOWN_S, type CodeSent, VerificationCodeSchema } from '@wildtrack/contract';
import { App, Button, Form, type FormRule, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../lib/form';

/**
 * The send-code button (§4, §9): sends, says where the code went (masked, §8 "Code sent"), then stays
 * disabled for a 60-second countdown. `beforeSend` checks the address field first; false stops.
 */
export function CodeButton({ send, beforeSend, testId }: { send: () => Promise<CodeSent>; beforeSend?: () => Promise<boolean>; testId?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const onClick = async (): Promise<void> => {
    if (beforeSend && !(await beforeSend())) return;
    setSending(true);
    try {
      const sent = await send();
      message.success(t('account.codeSent', { target: sent.Target }));
      setLeft(sent.ResendSeconds || CODE_COUNTDOWN_S);
    } catch {
      // the client already showed the server's message
    } finally {
      setSending(false);
    }
  };

  return (
    <Button onClick={() => void onClick()} disabled={left > 0} loading={sending} data-testid={testId} style={{ minWidth: 128 }}>
      {left > 0 ? t('account.resendIn', { seconds: left }) : t('account.sendCode')}
    </Button>
  );
}

/**
 * The verification-code field of a form (`code`, 4 digits) with its send button beside it; `beforeSend`
 * checks the address field first. `testPrefix` names the input `<prefix>-code`, the button `<prefix>-send`.
 */
export function CodeField({ label, send, beforeSend, testPrefix }: { label: string; send: () => Promise<CodeSent>; beforeSend?: () => Promise<boolean>; testPrefix: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name="code" noStyle rules={[zodRule(VerificationCodeSchema, t, 'field.code')]}>
          <Input maxLength={4} inputMode="numeric" autoComplete="one-time-code" data-testid={`${testPrefix}-code`} />
        </Form.Item>
        <CodeButton send={send} {...(beforeSend ? { beforeSend } : {})} testId={`${testPrefix}-send`} />
      </Space.Compact>
    </Form.Item>
  );
}

/** The rule of a "repeat the password" field: the same as the field `of`. */
export function sameAsRule(of: string, mismatch: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_r, v: unknown) => {
      if (v !== getFieldValue(of)) throw new Error(mismatch);
    },
  });
}
