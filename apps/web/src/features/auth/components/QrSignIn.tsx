import { ReloadOutlined } from '@ant-design/icons';
import { Code, GetLoginQRCode, type LoginResult, QR_LOGIN_POLL_MS, QRCodeLogin } from '@wildtrack/contract';
import { Button, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, isApiError } from '../../../lib/api';
import { signInTimeZone } from '../api/useSignIn';

/** Where the waiting page stands: asking for a code, showing it (scanned or not), or ended (expired, declined, used). */
type QrState =
  | { kind: 'asking' }
  | { kind: 'live'; code: string; ticket: string; link: string; expiresAt: number; scanned: boolean }
  | { kind: 'ended'; message: string };

const QUIET = { loading: false, repeatCheck: false, notify: false } as const;

/** The console link a QR code holds: the signed-in console's /qr-login page with the code. */
export function qrLoginLink(code: string): string {
  const base = `${window.location.origin}${import.meta.env.BASE_URL}`.replace(/\/$/, '');
  return `${base}/qr-login?code=${encodeURIComponent(code)}`;
}

/**
 * QR sign-in (contract calls/qrlogin.ts): asks for a code, shows its link as a QR code with the time left,
 * polls QRCodeLogin every QR_LOGIN_POLL_MS until a console signed in elsewhere confirms it, then signs in
 * as any other path does (`onSignedIn`). Expired, declined or used: the code is covered and Refresh asks
 * for a new one. The QR library is loaded with the first QR code, not with the sign-in page.
 */
export function QrSignIn({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation();
  const [round, setRound] = useState(0);
  const [state, setState] = useState<QrState>({ kind: 'asking' });
  const [image, setImage] = useState<string>();
  const [now, setNow] = useState(() => Date.now());
  // the latest callback, so that a new one from the page does not restart the poll
  const signedIn = useRef(onSignedIn);
  useEffect(() => {
    signedIn.current = onSignedIn;
  }, [onSignedIn]);

  // a new code on mount and on each Refresh
  useEffect(() => {
    let live = true;
    call(GetLoginQRCode, undefined, { loading: false, repeatCheck: false }).then(
      (qr) => {
        if (live) setState({ kind: 'live', code: qr.Code, ticket: qr.Ticket, link: qrLoginLink(qr.Code), expiresAt: Date.now() + qr.ExpiresIn * 1000, scanned: false });
      },
      (error: unknown) => {
        if (live) setState({ kind: 'ended', message: isApiError(error) && error.info.msg ? error.info.msg : t('login.qr.failed') });
      },
    );
    return () => {
      live = false;
    };
  }, [round, t]);

  const code = state.kind === 'live' ? state.code : undefined;
  const ticket = state.kind === 'live' ? state.ticket : undefined;
  const link = state.kind === 'live' ? state.link : undefined;
  const expiresAt = state.kind === 'live' ? state.expiresAt : 0;

  useEffect(() => {
    if (!link) return;
    let live = true;
    // as SVG text (no canvas needed), shown through an <img> so that nothing of it runs
    void import('qrcode').then((qr) => qr.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })).then((svg) => {
      if (live) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [link]);

  // the time left, each second, and the code's end on the page's own clock
  useEffect(() => {
    if (!expiresAt) return;
    const tick = window.setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= expiresAt) setState((s) => (s.kind === 'live' ? { kind: 'ended', message: t('login.qr.expired') } : s));
    }, 1000);
    return () => window.clearInterval(tick);
  }, [expiresAt, t]);

  // the poll: one at a time; a network failure or the rate limit only waits for the next turn
  useEffect(() => {
    if (!code || !ticket) return;
    let live = true;
    let timer: number | undefined;
    const poll = async (): Promise<void> => {
      try {
        const answer = await call(QRCodeLogin, { code, ticket, timeZone: signInTimeZone() }, QUIET);
        if (!live) return;
        if (answer.Status === 'Confirmed') {
          live = false;
          signedIn.current(answer);
          return;
        }
        setState((s) => (s.kind === 'live' && s.code === code ? { ...s, scanned: answer.Status === 'Scanned' } : s));
      } catch (error) {
        if (!live) return;
        // expired, declined, used: said by the server; a refused sign-in (locked, disabled) too
        if (isApiError(error) && error.code !== undefined && error.code !== Code.TooManyRequests && error.code !== Code.Unavailable) {
          setState({ kind: 'ended', message: error.info.msg || t('login.qr.failed') });
          return;
        }
      }
      if (live) timer = window.setTimeout(() => void poll(), QR_LOGIN_POLL_MS);
    };
    timer = window.setTimeout(() => void poll(), QR_LOGIN_POLL_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [code, ticket, t]);

  const refresh = (): void => {
    setState({ kind: 'asking' });
    setImage(undefined);
    setRound((r) => r + 1);
  };
  const left = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;

  return (
    <div className="wt-qr" data-testid="qr-login" data-state={state.kind === 'live' ? (state.scanned ? 'scanned' : 'waiting') : state.kind}>
      <div className="wt-qr-frame" data-link={link}>
        {image && state.kind !== 'asking' ? <img src={image} alt={t('login.qr.alt')} width={220} height={220} data-testid="qr-login-image" /> : <Spin />}
        {state.kind === 'ended' || (state.kind === 'live' && state.scanned) ? (
          <div className="wt-qr-cover" data-testid="qr-login-cover">
            <Typography.Text strong>{state.kind === 'ended' ? state.message : t('login.qr.scanned')}</Typography.Text>
            {state.kind === 'ended' ? (
              <Button type="primary" icon={<ReloadOutlined />} onClick={refresh} data-testid="qr-login-refresh">
                {t('login.qr.refresh')}
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      <Typography.Paragraph type="secondary" className="wt-qr-hint">
        {t('login.qr.hint')}
      </Typography.Paragraph>
      {state.kind === 'live' ? (
        <Typography.Text type="secondary" data-testid="qr-login-left">
          {t('login.qr.expiresIn', { time: clock })}
        </Typography.Text>
      ) : null}
    </div>
  );
}
