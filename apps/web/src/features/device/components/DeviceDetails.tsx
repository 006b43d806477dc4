import { DeviceType } from '@wildtrack/contract';
import { Alert, Skeleton, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { InstructionHistory } from '../../../widgets/instructions';
import { useDeviceTab } from '../../../lib/positionSelection';
import { useDeviceDetail } from '../api';
import { useConfirmDiscard } from '../unsaved';
import { AnimalInfoTab } from './AnimalInfoTab';
import { DetailsTab } from './DetailsTab';
import { FieldRecordsTab } from './FieldRecordsTab';
import { LastFix } from './DeviceState';
import { StatusTag } from './status';
import { WorkStatusTab } from './WorkStatusTab';

/** The details panel of one device: details, animal info and work status (§2.1 "device details with animal-info tabs"). */
export function DeviceDetails({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const detail = useDeviceDetail(imei);
  // the tab is part of the view context: kept across devices and screens, and carried by the URL
  const [tab, setTab] = useDeviceTab();
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
          <LastFix at={d.LastWorkAt} gapMinutes={d.ReportGapMinutes} compact />{' '}
          <StatusTag status={d.Status} reported={d.LastWorkAt !== null} />
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
          // the remote instructions sent to it (§2.1 remote-instruction history), with their statuses
          { key: 'instr', label: t('device.tab.instr'), children: tab === 'instr' ? <InstructionHistory imeis={[d.IMEI]} showDevice={false} /> : null },
          // What a field phone's ranger records (§3 POI, Behavior): only phones send them.
          ...(d.Type === DeviceType.Phone
            ? [{ key: 'field', label: t('device.tab.field'), children: tab === 'field' ? <FieldRecordsTab imei={d.IMEI} /> : null }]
            : []),
        ]}
      />
    </div>
  );
}
