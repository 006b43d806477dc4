import { LockOutlined, MailOutlined, MobileOutlined } from '@ant-design/icons';
import { maskEmail, maskPhone } from '@wildtrack/contract';
import { Alert, Modal, Skeleton, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useSafeSetting } from '../api/useSafeSetting';
import './security.css';

/**
 * The account-security dialog (§2.4). Its start page lists what secures the account: e-mail, phone and
 * the sign-in password, read from GetAccountSafeSetting. The auth, e-mail, phone and password pages
 * (the binding flows) belong to the account-security issue.
 */
export function AccountSecurityDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useSafeSetting(open);

  let content: ReactNode;
  if (query.isPending) {
    content = <Skeleton active paragraph={{ rows: 3 }} />;
  } else if (query.isError) {
    content = <ErrorState title={t('security.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    const setting = query.data;
    const phone = setting.Phone ? `+${setting.CountryCode || '86'} ${maskPhone(setting.Phone)}` : '';
    const rows: { key: string; icon: ReactNode; label: string; value: string; bound: boolean; boundText: string }[] = [
      { key: 'email', icon: <MailOutlined />, label: t('security.email'), value: setting.Email ? maskEmail(setting.Email) : '', bound: Boolean(setting.Email), boundText: t('security.bound') },
      { key: 'phone', icon: <MobileOutlined />, label: t('security.phone'), value: phone, bound: Boolean(setting.Phone), boundText: t('security.bound') },
      { key: 'pwd', icon: <LockOutlined />, label: t('security.password'), value: '', bound: true, boundText: t('security.passwordSet') },
    ];
    content = (
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
            </li>
          ))}
        </ul>
        {setting.PasswordOnly ? <Alert type="info" showIcon title={t('security.passwordOnly')} /> : null}
      </>
    );
  }

  return (
    <Modal open={open} title={t('security.title')} onCancel={onClose} footer={null} destroyOnHidden width={480}>
      {content}
    </Modal>
  );
}
