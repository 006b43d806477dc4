import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { PasswordLoginBody } from '@wildtrack/contract';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/form';
import type { SignInValues } from '../api/useSignIn';

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
