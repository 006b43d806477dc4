import {
  AccountNameSchema,
  AddressEmailSchema,
  type CodeSent,
  EmailRegister,
  GetAccountSafeSettingByAccount,
  GetRegisterEmailCode,
  GetRegisterPhoneCode,
  GetUnloginSecurityAuthCode,
  PasswordSchema,
  PhoneRegister,
  PhoneSchema,
  RecoveryAccountSchema,
  ResetPassword,
} from '@wildtrack/contract';
import { App, Button, Form, type FormInstance, Input, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeField, sameAsRule } from '../../../components/CodeButton';
import { call } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { signInTimeZone } from '../api/useSignIn';

function NewPasswordFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="pwd" label={t('account.newPwd')} rules={[zodRule(PasswordSchema, t, 'field.newPwd')]}>
        <Input.Password autoComplete="new-password" data-testid="account-pwd" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('account.confirmPwd')}
        dependencies={['pwd']}
        rules={[sameAsRule('pwd', t('account.pwdMismatch'))]}
      >
        <Input.Password autoComplete="new-password" data-testid="account-confirm" />
      </Form.Item>
    </>
  );
}

function AddressCodeField({ form, field, send }: { form: FormInstance; field: string; send: () => Promise<CodeSent> }) {
  const { t } = useTranslation();
  return <CodeField label={t('account.code')} send={send} beforeSend={() => form.validateFields([field]).then(() => true, () => false)} testPrefix="account" />;
}

interface RegisterValues {
  address: string;
  code: string;
  userName: string;
  pwd: string;
}

/** Register by e-mail or phone with a code (issue 17 item 4): a new organisation, the registrant its primary user. */
export function RegisterForm({ onDone, onBack }: { onDone: (account: string) => void; onBack: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<RegisterValues>();
  const [kind, setKind] = useState<'email' | 'phone'>('email');
  const [submitting, setSubmitting] = useState(false);
  const address = () => String(form.getFieldValue('address') ?? '').trim();

  const submit = async (v: RegisterValues): Promise<void> => {
    setSubmitting(true);
    try {
      const common = { code: v.code, userName: v.userName.trim(), pwd: v.pwd, timeZone: signInTimeZone() };
      if (kind === 'email') await call(EmailRegister, { email: v.address.trim(), ...common });
      else await call(PhoneRegister, { countryCode: '86', phone: v.address.trim(), ...common });
      message.success(t('account.registered'));
      onDone(common.userName);
    } catch {
      // the client showed the server's message
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<RegisterValues> form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)} data-testid="register-form">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('account.registerTitle')}
      </Typography.Title>
      <Form.Item>
        <Segmented
          block
          value={kind}
          onChange={(v) => {
            setKind(v as 'email' | 'phone');
            form.resetFields(['address', 'code']);
          }}
          options={[
            { label: t('account.byEmail'), value: 'email' },
            { label: t('account.byPhone'), value: 'phone' },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="address"
        label={t(kind === 'email' ? 'account.email' : 'account.phone')}
        rules={[kind === 'email' ? zodRule(AddressEmailSchema, t, 'field.email') : zodRule(PhoneSchema, t, 'field.phone')]}
      >
        <Input addonBefore={kind === 'phone' ? '+86' : undefined} maxLength={kind === 'email' ? 40 : 11} autoComplete={kind === 'email' ? 'email' : 'tel'} data-testid="account-address" />
      </Form.Item>
      <AddressCodeField
        form={form}
        field="address"
        send={() => (kind === 'email' ? call(GetRegisterEmailCode, { email: address() }) : call(GetRegisterPhoneCode, { countryCode: '86', phone: address() }))}
      />
      <Form.Item name="userName" label={t('account.userName')} extra={t('account.userNameHint')} rules={[zodRule(AccountNameSchema, t, 'field.userName')]}>
        <Input autoComplete="username" data-testid="account-username" />
      </Form.Item>
      <NewPasswordFields />
      <Button type="primary" htmlType="submit" block loading={submitting} size="large">
        {t('account.registerSubmit')}
      </Button>
      <Button type="link" block onClick={onBack} style={{ marginTop: 8 }}>
        {t('account.backToSignIn')}
      </Button>
    </Form>
  );
}

interface ResetValues {
  account: string;
  code: string;
  pwd: string;
}

/** Reset a forgotten password with a code to the account's e-mail or phone (answers alike for any address). */
export function ResetForm({ onDone, onBack }: { onDone: (account: string) => void; onBack: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ResetValues>();
  const [submitting, setSubmitting] = useState(false);

  const send = async () => {
    const account = String(form.getFieldValue('account') ?? '').trim();
    await call(GetAccountSafeSettingByAccount, { account }, { repeatCheck: false });
    return call(GetUnloginSecurityAuthCode, { account });
  };

  const submit = async (v: ResetValues): Promise<void> => {
    setSubmitting(true);
    try {
      await call(ResetPassword, { account: v.account.trim(), code: v.code, newPwd: v.pwd });
      message.success(t('account.resetDone'));
      onDone(v.account.trim());
    } catch {
      // the client showed the server's message
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<ResetValues> form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)} data-testid="reset-form">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('account.resetTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('account.resetIntro')}</Typography.Paragraph>
      <Form.Item name="account" label={t('account.recoveryAccount')} rules={[zodRule(RecoveryAccountSchema, t, 'field.account')]}>
        <Input autoComplete="username" data-testid="account-recovery" />
      </Form.Item>
      <AddressCodeField form={form} field="account" send={send} />
      <NewPasswordFields />
      <Button type="primary" htmlType="submit" block loading={submitting} size="large">
        {t('account.resetSubmit')}
      </Button>
      <Button type="link" block onClick={onBack} style={{ marginTop: 8 }}>
        {t('account.backToSignIn')}
      </Button>
    </Form>
  );
}
