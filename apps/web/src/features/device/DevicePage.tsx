import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * /device. The device table and details arrive with the device-management issue; until then the page
 * says plainly that no devices are registered.
 */
export function DevicePage() {
  const { t } = useTranslation();
  return (
    <Card className="wt-page-card" variant="borderless">
      <Empty
        className="wt-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <div>
            <Typography.Title level={4}>{t('device.emptyTitle')}</Typography.Title>
            <Typography.Paragraph type="secondary" style={{ maxWidth: 520, margin: '0 auto' }}>
              {t('device.emptyText')}
            </Typography.Paragraph>
          </div>
        }
      />
    </Card>
  );
}
