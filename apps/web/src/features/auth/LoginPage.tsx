import { ClockCircleOutlined } from '@ant-design/icons';
import { CLIENT_VERSION } from '@wildtrack/contract';
import { App, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BrandMark } from '../../components/BrandMark';
import { LanguageToggle } from '../../components/LanguageToggle';
import { safeRedirectTarget } from '../../lib/navigation';
import { keepSignIn, signInTimeZone, useSignIn } from './api/useSignIn';
import { GetRegistration, type LoginResult } from '@wildtrack/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Segmented, Spin } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { call } from '../../lib/api';
import { RegisterForm, ResetForm } from './components/AccountForms';
import { PhoneSignInForm, SignInForm } from './components/SignInForm';
import './login.css';

type SignInMethod = 'password' | 'phone' | 'qr';

// loaded when the QR method is chosen, so /login's first load stays the password form's
const QrSignIn = lazy(() => import('./components/QrSignIn').then((m) => ({ default: m.QrSignIn })));

/**
 * /login and /login2 (§2.1): the sign-in page, outside the common layout. /login opens on the password,
 * /login2 (the second sign-in path) on the QR code, its methods in that order (docs/accounts.md).
 */
export function LoginPage({ initialMethod = 'password' }: { initialMethod?: SignInMethod }) {
  const { t } = useTranslation();
  const { message, notification } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Sign in, register or reset a forgotten password, in the same card (issue 17 item 4).
  const [mode, setMode] = useState<'signIn' | 'register' | 'reset'>('signIn');
  const [account, setAccount] = useState('');
  // §7.2: by password (the default), with a code sent to the account's phone, or by a QR code a signed-in console confirms
  const [method, setMethod] = useState<SignInMethod>(initialMethod);
  const registration = useQuery({
    queryKey: ['auth', 'registration'],
    queryFn: () => call(GetRegistration, undefined, { loading: false, repeatCheck: false, notify: false }),
    staleTime: 60_000,
  });
  const backToSignIn = (name?: string) => {
    if (name) setAccount(name);
    setMode('signIn');
  };
  const redirect = params.get('redirect');
  const enter = useCallback(
    (result: LoginResult) => {
      // an earlier failed attempt's warning is stale now
      notification.destroy();
      if (result.WeakPassword) message.warning(t('validation.password.simple', { ns: 'contract' }), 6);
      void navigate(safeRedirectTarget(redirect), { replace: true });
    },
    [message, notification, navigate, redirect, t],
  );
  const signIn = useSignIn(enter);
  const qrSignedIn = useCallback(
    (result: LoginResult) => {
      keepSignIn(result);
      enter(result);
    },
    [enter],
  );
  const methods = [
    { label: t('login.byPassword'), value: 'password' },
    { label: t('login.byPhoneCode'), value: 'phone' },
    { label: t('login.byQr'), value: 'qr' },
  ];

  return (
    <div className="wt-login">
      <section className="wt-login-hero" aria-hidden="true">
        <div className="wt-login-hero-inner">
          <div className="wt-login-brand">
            <BrandMark size={44} />
            <span>{t('app.name')}</span>
          </div>
          <h2>{t('login.heroTitle')}</h2>
          <p>{t('login.heroText')}</p>
        </div>
        <svg className="wt-login-ridge" viewBox="0 0 1200 300" preserveAspectRatio="none">
          <path d="M0 220 L180 120 L300 190 L470 70 L640 200 L800 110 L960 210 L1200 90 L1200 300 L0 300 Z" fill="rgba(255,255,255,0.10)" />
          <path d="M0 260 L220 170 L380 240 L560 150 L760 250 L940 170 L1200 240 L1200 300 L0 300 Z" fill="rgba(255,255,255,0.16)" />
          <path d="M120 150 C 320 60, 520 200, 720 110 S 1020 60, 1140 120" fill="none" stroke="rgba(236,253,245,0.8)" strokeWidth="3" strokeDasharray="2 12" strokeLinecap="round" />
        </svg>
      </section>
      <main className="wt-login-panel">
        <div className="wt-login-top">
          <div className="wt-login-brand wt-login-brand-compact">
            <BrandMark size={32} />
            <span>{t('app.name')}</span>
          </div>
          <LanguageToggle />
        </div>
        <div className="wt-login-card">
          {mode === 'register' ? (
            <RegisterForm onDone={backToSignIn} onBack={() => backToSignIn()} />
          ) : mode === 'reset' ? (
            <ResetForm onDone={backToSignIn} onBack={() => backToSignIn()} />
          ) : (
            <>
              <Typography.Title level={2} style={{ marginBottom: 4 }}>
                {t('login.welcome')}
              </Typography.Title>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 28 }}>
                {t('login.subtitle')}
              </Typography.Paragraph>
              <Segmented
                block
                value={method}
                onChange={(v) => setMethod(v as SignInMethod)}
                options={initialMethod === 'qr' ? [methods[2]!, methods[0]!, methods[1]!] : methods}
                style={{ marginBottom: 20 }}
                data-testid="login-method"
              />
              {method === 'password' ? (
                <SignInForm key={account} initialAccount={account} onSubmit={(values) => signIn.mutate(values)} submitting={signIn.isPending} />
              ) : method === 'phone' ? (
                <PhoneSignInForm onSubmit={(values) => signIn.mutate(values)} submitting={signIn.isPending} />
              ) : (
                <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
                  <QrSignIn onSignedIn={qrSignedIn} />
                </Suspense>
              )}
              <div className="wt-login-links">
                <Button type="link" size="small" onClick={() => setMode('reset')} data-testid="login-forgot">
                  {t('account.forgot')}
                </Button>
                {registration.data?.Open ? (
                  <Button type="link" size="small" onClick={() => setMode('register')} data-testid="login-register">
                    {t('account.register')}
                  </Button>
                ) : null}
              </div>
            </>
          )}
          <div className="wt-login-meta">
            <span>
              <ClockCircleOutlined /> {t('login.timeZone', { zone: signInTimeZone() })}
            </span>
            <span>v{CLIENT_VERSION}</span>
          </div>
        </div>
      </main>
    </div>
  );
}
