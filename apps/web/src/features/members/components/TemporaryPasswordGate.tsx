import { LockOutlined } from '@ant-design/icons';
import { PasswordSchema } from '@wildtrack/contract';
import { App, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../../components/BrandMark';
import { LanguageToggle } from '../../../components/LanguageToggle';
import { zodRule } from '../../../lib/form';
import { markMustChangePassword } from '../../../lib/session';
import { useModifyTemporaryPassword } from '../api/useMembers';

interface Values {
  originalPwd: string;
  newPwd: string;
  confirm: string;
}

/**
 * What a user signed in with a temporary password sees instead of the console (issue 17 item 5): the
 * change form, before anything else (the server serves no other call until it is done). The temporary
 * and the new password are sealed like the sign-in password; leaving signs out.
 */
export function TemporaryPasswordGate({ onLeave }: { onLeave: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const change = useModifyTemporaryPassword();

  const submit = async (): Promise<void> => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await change.mutateAsync({ originalPwd: values.originalPwd, newPwd: values.newPwd });
    } catch {
      return; // the client has shown the refusal (a wrong temporary password names the field)
    }
    void message.success(t('members.changed'));
    markMustChangePassword(false);
  };

  return (
    <div className="wt-temp-password" style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: 'var(--ant-color-bg-layout, #f5f5f5)', padding: 16 }}>
      <Card
        style={{ width: 420, maxWidth: '100%' }}
        title={
          <Space>
            <BrandMark size={24} />
            {t('members.changeTitle')}
          </Space>
        }
        extra={<LanguageToggle />}
        data-testid="temp-password-gate"
      >
        <Typography.Paragraph type="secondary">{t('members.changeIntro')}</Typography.Paragraph>
        <Form form={form} name="temp-password" layout="vertical" onFinish={() => void submit()}>
          <Form.Item name="originalPwd" label={t('members.originalPwd')} rules={[{ required: true, message: t('members.originalRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="temp-original" />
          </Form.Item>
          <Form.Item name="newPwd" required label={t('members.newPwd')} extra={t('members.passwordRule')} rules={[zodRule(PasswordSchema, t, 'field.newPwd')]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid="temp-new" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('members.confirmPwd')}
            dependencies={['newPwd']}
            rules={[
              { required: true, message: t('members.confirmRequired') },
              ({ getFieldValue }) => ({
                validator: async (_r, v: string) => {
                  if (v && v !== getFieldValue('newPwd')) throw new Error(t('members.confirmMismatch'));
                },
              }),
            ]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid="temp-confirm" />
          </Form.Item>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Button onClick={onLeave} data-testid="temp-leave">
              {t('members.leave')}
            </Button>
            <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="temp-submit">
              {t('members.change')}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}
