import { ExperimentOutlined } from '@ant-design/icons';
import { App, Button, Empty, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { useExperienceSwitch } from '../../../widgets/device-tree';
import { MovebankImport } from './MovebankImport';

/**
 * The organisation's own devices, when it has none yet: the three ways to get some (an operator
 * registers devices, a Movebank file is imported, or the experience devices are turned on to look around).
 */
export function RootEmpty() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user } = useSession();
  const experience = useExperienceSwitch();
  const experienceOn = user.experience === '1';
  return (
    <Empty
      className="wt-empty"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      data-testid="root-empty"
      description={
        <div>
          <Typography.Title level={5}>{t('device.rootEmpty.title')}</Typography.Title>
          <Typography.Paragraph type="secondary" style={{ maxWidth: 560, margin: '0 auto 12px' }}>
            {t('device.rootEmpty.text')}
          </Typography.Paragraph>
          <ul className="wt-root-empty-ways">
            <li>{t('device.rootEmpty.register')}</li>
            <li>{t('device.rootEmpty.import')}</li>
            <li>{experienceOn ? t('device.rootEmpty.experienceShown') : t('device.rootEmpty.experience')}</li>
          </ul>
          <Space wrap>
            <MovebankImport folderId={null} />
            {experienceOn ? null : (
              <Button
                icon={<ExperimentOutlined />}
                loading={experience.isPending}
                data-testid="root-empty-experience"
                onClick={() => experience.mutate(true, { onSuccess: () => void message.success(t('layout.experienceOn')) })}
              >
                {t('device.rootEmpty.showExperience')}
              </Button>
            )}
          </Space>
        </div>
      }
    />
  );
}
