import { SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The safety prompt at sign-in (§4): shown when the account has neither e-mail nor phone. It cannot be
 * dismissed; confirming opens the account-security dialog, cancelling signs out after a confirmation.
 */
export function SafetyPrompt({ open, onSecure, onLeave }: { open: boolean; onSecure: () => void; onLeave: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();

  const confirmLeave = (): void => {
    modal.confirm({
      title: t('security.promptLeaveTitle'),
      content: t('security.promptLeaveText'),
      okText: t('security.promptLeaveConfirm'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: onLeave,
    });
  };

  return (
    <Modal
      open={open}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      title={
        <Space>
          <SafetyCertificateOutlined style={{ color: 'var(--ant-color-warning)' }} />
          {t('security.promptTitle')}
        </Space>
      }
      okText={t('security.promptConfirm')}
      cancelText={t('security.promptCancel')}
      onOk={onSecure}
      onCancel={confirmLeave}
      width={460}
    >
      <Typography.Paragraph>{t('security.promptText')}</Typography.Paragraph>
    </Modal>
  );
}
