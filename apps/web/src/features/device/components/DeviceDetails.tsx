import { Alert, Skeleton, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useDeviceDetail } from '../api';
import { useConfirmDiscard } from '../unsaved';
import { AnimalInfoTab } from './AnimalInfoTab';
import { DetailsTab } from './DetailsTab';
import { StatusTag } from './status';
import { WorkStatusTab } from './WorkStatusTab';

/** The details panel of one device: details, animal info and work status (§2.1 "device details with animal-info tabs"). */
export function DeviceDetails({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const detail = useDeviceDetail(imei);
  const [tab, setTab] = useState('details');
  const confirmDiscard = useConfirmDiscard();

  if (detail.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (detail.isError) return <ErrorState title={t('device.detailError')} error={detail.error} onRetry={() => void detail.refetch()} />;
  const d = detail.data;
  const readOnly = d.Example || !d.Permission.EditDevice;

  return (
    <div data-testid="device-details" data-imei={d.IMEI}>
      <div className="wt-details-head">
        <Typography.Title level={4}>
          {d.RemarkName || d.Caption}{' '}
          <Typography.Text type="secondary" className="wt-mono">
            {d.IMEI}
          </Typography.Text>
        </Typography.Title>
        <span>
          <StatusTag status={d.Status} />
          {d.Example ? <Tag color="cyan">{t('device.example')}</Tag> : null}
        </span>
      </div>
      {d.Example ? (
        <Alert className="wt-details-note" type="info" showIcon title={t('device.exampleNote')} data-testid="example-note" />
      ) : !d.Permission.EditDevice ? (
        <Alert className="wt-details-note" type="warning" showIcon title={t('device.noEditNote')} data-testid="no-edit-note" />
      ) : null}
      <Tabs
        activeKey={tab}
        // leaving the animal-info tab drops its unsaved edits: asked first
        onChange={(next) => (tab === 'animal' ? confirmDiscard(() => setTab(next)) : setTab(next))}
        items={[
          { key: 'details', label: t('device.tab.details'), children: <DetailsTab detail={d} /> },
          { key: 'animal', label: t('device.tab.animal'), children: tab === 'animal' ? <AnimalInfoTab detail={d} readOnly={readOnly} /> : null },
          { key: 'work', label: t('device.tab.work'), children: tab === 'work' ? <WorkStatusTab imei={d.IMEI} /> : null },
        ]}
      />
    </div>
  );
}
