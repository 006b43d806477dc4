import { LockOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { GetLoginPhoneCode, PasswordLoginBody, PhoneSchema } from '@wildtrack/contract';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/form';
import { CodeField } from '../../../components/CodeButton';
import { call } from '../../../lib/api';
import type { PhoneSignInValues, SignInValues } from '../api/useSignIn';

export function SignInForm({ onSubmit, submitting, initialAccount = '' }: { onSubmit: (values: SignInValues) => void; submitting: boolean; initialAccount?: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SignInValues>();

  return (
    <Form<SignInValues> form={form} initialValues={{ account: initialAccount }} layout="vertical" size="large" requiredMark={false} onFinish={onSubmit} autoComplete="on">
      <Form.Item
        name="account"
        label={t('login.account')}
        rules={[zodRule(PasswordLoginBody.shape.account, t, 'field.account')]}
      >
        <Input prefix={<UserOutlined />} placeholder={t('login.accountPlaceholder')} autoComplete="username" autoFocus />
      </Form.Item>
      <Form.Item name="pwd" label={t('login.password')} rules={[zodRule(PasswordLoginBody.shape.pwd, t, 'field.pwd')]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.passwordPlaceholder')} autoComplete="current-password" />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** The phone-code sign-in (§7.2 GetLoginPhoneCode, PhoneCodeLogin): phone, send-code button with its 60 s countdown, code. */
export function PhoneSignInForm({ onSubmit, submitting }: { onSubmit: (values: PhoneSignInValues) => void; submitting: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PhoneSignInValues>();
  const send = () => call(GetLoginPhoneCode, { countryCode: '86', phone: String(form.getFieldValue('phone') ?? '').trim() });

  return (
    <Form<PhoneSignInValues> form={form} layout="vertical" size="large" requiredMark={false} onFinish={onSubmit} data-testid="phone-login-form">
      <Form.Item name="phone" label={t('account.phone')} rules={[zodRule(PhoneSchema, t, 'field.phone')]}>
        <Input prefix={<MobileOutlined />} addonBefore="+86" maxLength={11} inputMode="tel" autoComplete="tel" placeholder={t('login.phonePlaceholder')} data-testid="phone-login-phone" />
      </Form.Item>
      <CodeField label={t('account.code')} send={send} beforeSend={() => form.validateFields(['phone']).then(() => true, () => false)} testPrefix="phone-login" />
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={submitting} data-testid="phone-login-submit">
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
