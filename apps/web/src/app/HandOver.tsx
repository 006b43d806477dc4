import { Exit, GetUserInfo, type User } from '@wildtrack/contract';
import { Button, Card, Result, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../components/BrandMark';
import { call } from '../lib/api';
import { clearSession, userValues, writeStoredUser } from '../lib/session';
import { endHandOver } from './guard';

type State = { step: 'loading' } | { step: 'ask'; user: User } | { step: 'invalid' } | { step: 'leaving' };

/**
 * "Signed in as X — continue?" (issue 26 L10): a session handed over in the address (§2.2 `#token=`) is
 * used only after the person at this browser says it is the account they meant to open; until then
 * nothing of the console renders (no screen asks anything with it). Continuing keeps it; cancelling
 * ends that session on the server (Exit) and forgets it here, and the console goes on signed out.
 * Its texts are in the signed-out `login` namespace (they are needed before any sign-in).
 */
export function HandOverConfirm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ step: 'loading' });
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    call(GetUserInfo, undefined, { repeatCheck: false, quiet: true, loading: false }).then(
      (user) => setState({ step: 'ask', user }),
      // an ended or unknown session (the client has already cleared it), or no answer: nothing to adopt
      () => setState({ step: 'invalid' }),
    );
  }, []);

  const proceed = (user: User) => {
    writeStoredUser(userValues(user));
    endHandOver();
    onDone();
  };
  const cancel = async () => {
    setState({ step: 'leaving' });
    try {
      await call(Exit, undefined, { repeatCheck: false, quiet: true });
    } catch {
      // ended already, or the server can't be reached: it is forgotten here either way
    }
    discard();
  };
  const discard = () => {
    clearSession();
    endHandOver();
    onDone();
  };

  let body: ReactNode;
  if (state.step === 'ask') {
    const { user } = state;
    const name = user.NickName || user.UserName;
    body = (
      <Result
        status="warning"
        title={t('login.handOver.title', { name })}
        subTitle={
          <Space direction="vertical" size={4}>
            <Typography.Text data-testid="hand-over-account">{t('login.handOver.account', { name: user.UserName, org: user.CustomerName })}</Typography.Text>
            <Typography.Text type="secondary">{t('login.handOver.explain')}</Typography.Text>
          </Space>
        }
        extra={[
          <Button key="continue" type="primary" onClick={() => proceed(user)}>
            {t('login.handOver.continue', { name })}
          </Button>,
          <Button key="cancel" onClick={() => void cancel()}>
            {t('login.handOver.cancel')}
          </Button>,
        ]}
      />
    );
  } else if (state.step === 'invalid') {
    body = (
      <Result
        status="info"
        title={t('login.handOver.invalid')}
        extra={
          <Button type="primary" onClick={discard}>
            {t('login.handOver.toSignIn')}
          </Button>
        }
      />
    );
  } else {
    body = (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16, background: '#f5f7f6' }}>
      <Card style={{ maxWidth: 560, width: '100%' }} title={<Space><BrandMark size={28} />{t('app.name')}</Space>}>
        {body}
      </Card>
    </main>
  );
}
