import { AndroidOutlined, AppleOutlined } from '@ant-design/icons';
import { CLIENT_VERSION } from '@wildtrack/contract';
import { Button, Descriptions, Modal, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { getLang } from '../../../i18n/language';
import { useVersionInfo } from '../api/useVersionInfo';
import { browserLocales, versionRegion } from '../region';
import './version.css';

/**
 * The version page (§2.4 Version), embedded in a dialog: the version tag, what changed in the interface
 * language, and the app downloads from the host of the browser's region (en, na, other).
 */
export function VersionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = getLang();
  const region = versionRegion(lang, browserLocales());
  const info = useVersionInfo(lang, region, open);
  return (
    <Modal open={open} title={t('version.title')} onCancel={onClose} footer={null} destroyOnHidden width={560}>
      <div className="wt-version" data-testid="version-page" lang={lang === 'zh' ? 'zh-CN' : 'en'}>
        {info.isPending ? (
          <Skeleton active />
        ) : info.isError ? (
          <ErrorState title={t('version.loadError')} error={info.error} onRetry={() => void info.refetch()} />
        ) : (
          <>
            <Descriptions size="small" column={1} bordered>
              <Descriptions.Item label={t('version.client')}>
                <span data-testid="version-client">{CLIENT_VERSION}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('version.server')}>
                <span data-testid="version-server">{info.data.Build ? `${info.data.Version} (${info.data.Build})` : info.data.Version}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('version.region')}>{t(`version.regions.${info.data.Region}`)}</Descriptions.Item>
            </Descriptions>
            <Typography.Title level={5}>{t('version.downloads')}</Typography.Title>
            <Space wrap>
              {info.data.Downloads.map((d) => (
                <Button key={d.Platform} href={d.Url} target="_blank" rel="noopener noreferrer" icon={d.Platform === 'ios' ? <AppleOutlined /> : <AndroidOutlined />} data-testid={`download-${d.Platform}`}>
                  {t(`version.platform.${d.Platform}`)}
                </Button>
              ))}
            </Space>
            <Typography.Title level={5}>{t('version.changes')}</Typography.Title>
            <div className="wt-version-changes" data-testid="version-changes">
              {info.data.Changes.map((c) => (
                <section key={c.Version}>
                  <Typography.Text strong>
                    {c.Version} · {c.Date}
                  </Typography.Text>
                  <ul>
                    {c.Items.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
