import { ConfirmQRCodeLogin, formatTime, GetQRCodeLoginRequest, QrSecretSchema } from '@wildtrack/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { call, isApiError } from '../../lib/api';
import { useZone } from '../../lib/session';
import { describeBrowser } from './browser';

/**
 * /qr-login?code=…: the link a sign-in page's QR code holds, opened by a signed-in console (a phone).
 * It shows which browser asks, from where and when, for which account (this one), and confirms or
 * declines (contract calls/qrlogin.ts). A console signed out meets /login first and comes back here.
 */
export function QrLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const zone = useZone();
  const code = params.get('code') ?? '';
  const wellFormed = QrSecretSchema.safeParse(code).success;
  const request = useQuery({
    queryKey: ['qr-login', code],
    queryFn: () => call(GetQRCodeLoginRequest, { code }, { notify: false }),
    enabled: wellFormed,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const answer = useMutation({ mutationFn: (accept: boolean) => call(ConfirmQRCodeLogin, { code, accept }, { notify: false }).then(() => accept) });
  const back = (
    <Button type="primary" onClick={() => void navigate('/', { replace: true })} data-testid="qr-confirm-back">
      {t('qrLogin.back')}
    </Button>
  );
  const refused = (error: unknown) => (isApiError(error) && error.info.msg ? error.info.msg : t('qrLogin.failed'));

  let body;
  if (!wellFormed) body = <Result status="warning" title={t('qrLogin.failed')} subTitle={t('qrLogin.noCode')} extra={back} />;
  else if (answer.isSuccess)
    body = answer.data ? (
      <Result status="success" title={t('qrLogin.confirmed')} extra={back} data-testid="qr-confirm-done" />
    ) : (
      <Result status="info" title={t('qrLogin.declined')} extra={back} data-testid="qr-confirm-done" />
    );
  else if (answer.isError) body = <Result status="warning" title={t('qrLogin.failed')} subTitle={refused(answer.error)} extra={back} data-testid="qr-confirm-failed" />;
  else if (request.isError) body = <Result status="warning" title={t('qrLogin.failed')} subTitle={refused(request.error)} extra={back} data-testid="qr-confirm-failed" />;
  else if (!request.data) body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else {
    const asked = request.data;
    body = (
      <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="qr-confirm">
        <Typography.Paragraph style={{ fontSize: 16, marginBottom: 0 }}>{t('qrLogin.asking', { user: asked.UserName })}</Typography.Paragraph>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('qrLogin.browser')}>{describeBrowser(asked.UserAgent, t)}</Descriptions.Item>
          <Descriptions.Item label={t('qrLogin.address')}>{asked.Ip}</Descriptions.Item>
          <Descriptions.Item label={t('qrLogin.askedAt')}>{formatTime(asked.CreatedAt, zone)}</Descriptions.Item>
        </Descriptions>
        <Typography.Text type="warning">{t('qrLogin.warning')}</Typography.Text>
        <Space wrap>
          <Button type="primary" size="large" loading={answer.isPending && answer.variables} disabled={answer.isPending} onClick={() => answer.mutate(true)} data-testid="qr-confirm-accept">
            {t('qrLogin.confirm')}
          </Button>
          <Button size="large" loading={answer.isPending && !answer.variables} disabled={answer.isPending} onClick={() => answer.mutate(false)} data-testid="qr-confirm-decline">
            {t('qrLogin.decline')}
          </Button>
        </Space>
      </Space>
    );
  }

  return (
    <div style={{ maxWidth: 560, margin: '24px auto', padding: '0 12px' }}>
      <Card title={t('qrLogin.title')}>{body}</Card>
    </div>
  );
}
