import { CODE_COUNTDOWN_S, type CodeSent } from '@wildtrack/contract';
import { App, Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

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
