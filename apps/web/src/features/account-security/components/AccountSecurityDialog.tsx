import { LeftOutlined, LockOutlined, MailOutlined, MobileOutlined } from '@ant-design/icons';
import {
  AddressEmailSchema,
  Authenticate,
  AuthLoginPwd,
  GetNewEmailCode,
  GetNewPhoneCode,
  GetSecurityAuthCode,
  maskEmail,
  maskPhone,
  ModifyPassword,
  ModifySafeEmail,
  ModifySafePhone,
  PasswordSchema,
  PhoneSchema,
  type SafeSetting,
} from '@wildtrack/contract';
import { Alert, App, Button, Form, Input, Modal, Radio, Skeleton, Space, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { call } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { markSafetyPrompt } from '../../../lib/session';
import { useSafeSetting } from '../api/useSafeSetting';
import { isExpired, isVerified, securityCall, useRefreshSafeSetting } from '../api/useSecurity';
import { CodeField, sameAsRule } from '../../../components/CodeButton';
import './security.css';

/** §2.4 Account security pages; auth comes before the edit page it leads to (`next`). */
type Edit = 'email' | 'phone' | 'pwd';
type Page = { name: 'start' } | { name: 'auth'; next: Edit; expired?: string } | { name: Edit };

const phoneText = (s: SafeSetting) => (s.Phone ? `+${s.CountryCode || '86'} ${maskPhone(s.Phone)}` : '');

/**
 * The account-security dialog (§2.4, §4 "Account security flow"): start lists what secures the account;
 * choosing e-mail, phone or password asks Authenticated and goes to that page when the session proved
 * its owner lately, else to auth (a code to the bound e-mail or phone, or the sign-in password when
 * the account has neither). Cancel or success goes back to start. A 1005 on an edit page goes back to
 * auth with the 5-minute hint (§8). Binding an e-mail or phone ends the safety prompt.
 */
export function AccountSecurityDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useSafeSetting(open);
  const [page, setPage] = useState<Page>({ name: 'start' });
  const [opening, setOpening] = useState<Edit | null>(null);

  const close = (): void => {
    setPage({ name: 'start' });
    onClose();
  };

  const openEdit = async (edit: Edit): Promise<void> => {
    setOpening(edit);
    try {
      setPage((await isVerified()) ? { name: edit } : { name: 'auth', next: edit });
    } catch {
      // the client showed why
    } finally {
      setOpening(null);
    }
  };
  const expired = (next: Edit, msg: string) => setPage({ name: 'auth', next, expired: msg });
  const back = () => setPage({ name: 'start' });

  let content: ReactNode;
  let title = t('security.title');
  if (query.isPending) {
    content = <Skeleton active paragraph={{ rows: 3 }} />;
  } else if (query.isError) {
    content = <ErrorState title={t('security.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (page.name === 'start') {
    content = <StartPage setting={query.data} opening={opening} onOpen={(e) => void openEdit(e)} />;
  } else {
    title = t(`security.page.${page.name}`);
    const inner =
      page.name === 'auth' ? (
        <AuthPage setting={query.data} expired={page.expired} onDone={() => setPage({ name: page.next })} onCancel={back} />
      ) : page.name === 'pwd' ? (
        <PasswordPage onDone={back} onExpired={(msg) => expired('pwd', msg)} onCancel={back} />
      ) : (
        <AddressPage kind={page.name} onDone={back} onExpired={(msg) => expired(page.name as Edit, msg)} onCancel={back} />
      );
    content = (
      <>
        <Button type="link" icon={<LeftOutlined />} onClick={back} style={{ paddingInline: 0, marginBottom: 8 }}>
          {t('security.back')}
        </Button>
        {inner}
      </>
    );
  }

  return (
    <Modal open={open} title={title} onCancel={close} footer={null} destroyOnHidden width={500}>
      {content}
    </Modal>
  );
}

function StartPage({ setting, opening, onOpen }: { setting: SafeSetting; opening: Edit | null; onOpen: (e: Edit) => void }) {
  const { t } = useTranslation();
  const rows: { key: Edit; icon: ReactNode; label: string; value: string; bound: boolean; boundText: string; action: string }[] = [
    { key: 'email', icon: <MailOutlined />, label: t('security.email'), value: setting.Email ? maskEmail(setting.Email) : '', bound: Boolean(setting.Email), boundText: t('security.bound'), action: setting.Email ? t('security.change') : t('security.bind') },
    { key: 'phone', icon: <MobileOutlined />, label: t('security.phone'), value: phoneText(setting), bound: Boolean(setting.Phone), boundText: t('security.bound'), action: setting.Phone ? t('security.change') : t('security.bind') },
    { key: 'pwd', icon: <LockOutlined />, label: t('security.password'), value: '', bound: true, boundText: t('security.passwordSet'), action: t('security.change') },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('security.intro')}</Typography.Paragraph>
      <ul className="wt-security-list">
        {rows.map((row) => (
          <li key={row.key} className="wt-security-row" data-testid={`security-${row.key}`}>
            <span className="wt-security-icon">{row.icon}</span>
            <div className="wt-security-text">
              <Typography.Text strong>{row.label}</Typography.Text>
              {row.value ? <Typography.Text type="secondary">{row.value}</Typography.Text> : null}
            </div>
            {row.bound ? <Tag color="success">{row.boundText}</Tag> : <Tag color="warning">{t('security.notBound')}</Tag>}
            <Button size="small" type="link" loading={opening === row.key} onClick={() => onOpen(row.key)} data-testid={`security-open-${row.key}`}>
              {row.action}
            </Button>
          </li>
        ))}
      </ul>
      {setting.PasswordOnly ? <Alert type="info" showIcon title={t('security.passwordOnly')} /> : null}
    </>
  );
}

function Actions({ submitting, onCancel, submitText }: { submitting: boolean; onCancel: () => void; submitText: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item style={{ marginBottom: 0, textAlign: 'right' }}>
      <Space>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {submitText}
        </Button>
      </Space>
    </Form.Item>
  );
}

/** Auth: a code to the bound e-mail (1) or phone (2), or the sign-in password when the account has neither. */
function AuthPage({ setting, expired, onDone, onCancel }: { setting: SafeSetting; expired: string | undefined; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ type: 1 | 2; code: string; loginPwd: string }>();
  const [submitting, setSubmitting] = useState(false);
  const [type, setType] = useState<1 | 2>(setting.Email ? 1 : 2);
  const hint =
    expired !== undefined ? <Alert type="warning" showIcon title={expired} description={t('security.expiryHint')} style={{ marginBottom: 16 }} data-testid="security-expired" /> : null;

  const submit = async (values: { code?: string; loginPwd?: string }): Promise<void> => {
    setSubmitting(true);
    try {
      if (setting.PasswordOnly) await call(AuthLoginPwd, { loginPwd: values.loginPwd ?? '' });
      else await call(Authenticate, { type, code: values.code ?? '' });
      onDone();
    } catch {
      // the client showed the server's message
    } finally {
      setSubmitting(false);
    }
  };

  if (setting.PasswordOnly) {
    return (
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
        {hint}
        <Typography.Paragraph type="secondary">{t('security.authByPassword')}</Typography.Paragraph>
        <Form.Item name="loginPwd" label={t('security.loginPwd')} rules={[{ required: true, message: t('security.enterPassword') }]}>
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <Actions submitting={submitting} onCancel={onCancel} submitText={t('security.verify')} />
      </Form>
    );
  }
  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
      {hint}
      <Typography.Paragraph type="secondary">{t('security.authByCode')}</Typography.Paragraph>
      <Form.Item label={t('security.authWay')}>
        <Radio.Group value={type} onChange={(e) => setType(e.target.value as 1 | 2)}>
          <Space direction="vertical">
            {setting.Email ? <Radio value={1}>{`${t('security.email')} ${maskEmail(setting.Email)}`}</Radio> : null}
            {setting.Phone ? <Radio value={2}>{`${t('security.phone')} ${phoneText(setting)}`}</Radio> : null}
          </Space>
        </Radio.Group>
      </Form.Item>
      <CodeField label={t('security.code')} send={() => call(GetSecurityAuthCode, { type })} testPrefix="security" />
      <Actions submitting={submitting} onCancel={onCancel} submitText={t('security.verify')} />
    </Form>
  );
}

/** The e-mail or phone page: the new address, a code sent to it, then bound. */
function AddressPage({ kind, onDone, onExpired, onCancel }: { kind: 'email' | 'phone'; onDone: () => void; onExpired: (msg: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefreshSafeSetting();
  const [form] = Form.useForm<{ address: string; code: string }>();
  const [submitting, setSubmitting] = useState(false);

  const sendCode = async () => {
    const address = String(form.getFieldValue('address') ?? '').trim();
    const r = kind === 'email' ? await securityCall(GetNewEmailCode, { email: address }) : await securityCall(GetNewPhoneCode, { countryCode: '86', phone: address });
    if (isExpired(r)) {
      onExpired(r.expired);
      throw new Error('expired');
    }
    return r;
  };

  const submit = async (values: { address: string; code: string }): Promise<void> => {
    setSubmitting(true);
    try {
      const address = values.address.trim();
      const r =
        kind === 'email'
          ? await securityCall(ModifySafeEmail, { email: address, code: values.code })
          : await securityCall(ModifySafePhone, { countryCode: '86', phone: address, code: values.code });
      if (isExpired(r)) return onExpired(r.expired);
      markSafetyPrompt(false);
      message.success(t(kind === 'email' ? 'security.emailBound' : 'security.phoneBound'));
      await refresh();
      onDone();
    } catch {
      // the client showed the server's message
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
      <Form.Item
        name="address"
        label={t(kind === 'email' ? 'security.newEmail' : 'security.newPhone')}
        rules={[kind === 'email' ? zodRule(AddressEmailSchema, t, 'field.email') : zodRule(PhoneSchema, t, 'field.phone')]}
      >
        <Input addonBefore={kind === 'phone' ? '+86' : undefined} maxLength={kind === 'email' ? 40 : 11} autoFocus data-testid="security-address" />
      </Form.Item>
      <CodeField
        label={t('security.code')}
        send={sendCode}
        beforeSend={() => form.validateFields(['address']).then(() => true, () => false)}
        testPrefix="security"
      />
      <Actions submitting={submitting} onCancel={onCancel} submitText={t('security.bindSubmit')} />
    </Form>
  );
}

/** The password page: the original and the new password (both sealed by the client), the new one twice. */
function PasswordPage({ onDone, onExpired, onCancel }: { onDone: () => void; onExpired: (msg: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ loginPwd: string; newPwd: string; confirm: string }>();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (values: { loginPwd: string; newPwd: string }): Promise<void> => {
    setSubmitting(true);
    try {
      const r = await securityCall(ModifyPassword, { loginPwd: values.loginPwd, newPwd: values.newPwd });
      if (isExpired(r)) return onExpired(r.expired);
      message.success(t('security.passwordChanged'));
      onDone();
    } catch {
      // the client showed the server's message ("The original password is incorrect")
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
      <Form.Item name="loginPwd" label={t('security.originalPwd')} rules={[{ required: true, message: t('security.enterPassword') }]}>
        <Input.Password autoComplete="current-password" autoFocus data-testid="security-original" />
      </Form.Item>
      <Form.Item name="newPwd" label={t('security.newPwd')} rules={[zodRule(PasswordSchema, t, 'field.newPwd')]}>
        <Input.Password autoComplete="new-password" data-testid="security-new" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('security.confirmPwd')}
        dependencies={['newPwd']}
        rules={[sameAsRule('newPwd', t('security.pwdMismatch'))]}
      >
        <Input.Password autoComplete="new-password" data-testid="security-confirm" />
      </Form.Item>
      <Actions submitting={submitting} onCancel={onCancel} submitText={t('security.changeSubmit')} />
    </Form>
  );
}
