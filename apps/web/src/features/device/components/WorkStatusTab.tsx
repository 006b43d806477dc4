import { GNSSCollectionMode, HOUR_OPTIONS, type ObservedWork } from '@wildtrack/contract';
import { Alert, Descriptions, Skeleton, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useWorkStatus } from '../api';
import { useObservedWork } from '../api/observed';
import { useDuration } from './DeviceState';

function Hours({ hours }: { hours: readonly number[] }) {
  const { t } = useTranslation();
  if (hours.length === 0) return <span className="wt-muted">{t('work.none')}</span>;
  return (
    <span className="wt-hours">
      {hours.map((h) => (
        <Tag key={h}>{HOUR_OPTIONS[h] ?? h}</Tag>
      ))}
    </span>
  );
}

/**
 * The configured schedule beside the observed one (issue 12): the longest fix gap and postback wait the
 * configuration allows, and the medians of the device's last days of fixes (GetObservedWork), with when
 * the device last reported its configuration.
 */
function ScheduleCompare({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const observed = useObservedWork(imei);
  if (observed.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (observed.isError) return <ErrorState title={t('deviceState.observed.loadError')} error={observed.error} onRetry={() => void observed.refetch()} />;
  const o: ObservedWork = observed.data;
  const none = <span className="wt-muted">—</span>;
  const unknown = <span className="wt-muted">{t('ws.unknown', { ns: 'contract' })}</span>;
  const rows = [
    {
      key: 'fix',
      item: t('deviceState.observed.fixInterval'),
      configured: o.ConfiguredFixIntervalMinutes === null ? unknown : duration(o.ConfiguredFixIntervalMinutes),
      observed: o.MedianFixIntervalMinutes === null ? none : duration(o.MedianFixIntervalMinutes),
    },
    {
      key: 'postback',
      item: t('deviceState.observed.postbackDelay'),
      configured:
        o.ConfiguredPostbackWaitMinutes === null
          ? unknown
          : o.ConfiguredPostbackWaitMinutes === 0
            ? t('deviceState.observed.realtime')
            : t('deviceState.observed.upTo', { value: duration(o.ConfiguredPostbackWaitMinutes) }),
      observed: o.MedianPostbackDelayMinutes === null ? none : duration(o.MedianPostbackDelayMinutes),
    },
  ];
  return (
    <div className="wt-schedule-compare" data-testid="schedule-compare">
      <Typography.Title level={5}>{t('deviceState.observed.title')}</Typography.Title>
      <Table
        size="small"
        bordered
        pagination={false}
        rowKey="key"
        dataSource={rows}
        columns={[
          { key: 'item', dataIndex: 'item', title: '' },
          { key: 'configured', dataIndex: 'configured', title: t('deviceState.observed.configured'), onCell: (r) => ({ 'data-testid': `configured-${r.key}` }) as object },
          { key: 'observed', dataIndex: 'observed', title: t('deviceState.observed.observed', { days: o.Days }), onCell: (r) => ({ 'data-testid': `observed-${r.key}` }) as object },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 4 }} data-testid="observed-window">
        {o.FixCount > 0 ? t('deviceState.observed.window', { from: o.From, to: o.To, count: o.FixCount }) : t('deviceState.observed.noFixes')}
      </Typography.Paragraph>
      {o.ConfigReportedTime ? (
        <Typography.Paragraph type="secondary" data-testid="config-reported">
          {t('deviceState.observed.reported', { time: o.ConfigReportedTime })}
        </Typography.Paragraph>
      ) : (
        <Alert type="info" showIcon title={t('deviceState.observed.notReported')} data-testid="config-reported" />
      )}
    </div>
  );
}

/**
 * How the device collects and sends data (DeviceWorkStatus, §3): GNSS collection mode with its
 * settings, data postback and acceleration. Read-only here; remote instructions change them.
 */
export function WorkStatusTab({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const status = useWorkStatus(imei);
  if (status.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (status.isError) return <ErrorState title={t('work.loadError')} error={status.error} onRetry={() => void status.refetch()} />;
  const w = status.data;
  // A device that never reported its work status: unknown, not a schedule it may not have.
  if (!w.Known) {
    return (
      <div data-testid="work-status">
        <Alert type="info" showIcon title={t('ws.unknown', { ns: 'contract' })} data-testid="work-status-unknown" />
        <ScheduleCompare imei={imei} />
      </div>
    );
  }
  const none = (v: ReactNode) => (v === null || v === undefined || v === '' ? <span className="wt-muted">—</span> : v);

  const gnss: { label: string; children: ReactNode }[] = [];
  if (w.GNSSCollectionMode === GNSSCollectionMode.NORMAL) {
    gnss.push({ label: t('work.normalType'), children: t(`work.normalTypes.${w.NormalType}`) });
    if (w.NormalType === 'HOURS') gnss.push({ label: t('work.customHours'), children: <Hours hours={w.CustomHours} /> });
    else gnss.push({ label: t('work.interval'), children: none(w.IntervalMinutes !== null ? t('work.minutes', { count: w.IntervalMinutes }) : null) });
  } else if (w.GNSSCollectionMode === GNSSCollectionMode.ADAPTIVE_HIGH) {
    for (const level of ['High', 'Medium', 'Low'] as const) {
      gnss.push({ label: t(`work.level.${level}`), children: t('work.minutes', { count: w.HighFrequencyIntervals[level] }) });
    }
  } else {
    for (const level of ['High', 'Medium', 'Low'] as const) {
      gnss.push({ label: t(`work.level.${level}`), children: <Hours hours={w.LowFrequencyHours[level]} /> });
    }
  }

  return (
    <div data-testid="work-status">
      <Typography.Paragraph type="secondary">{t('work.readOnly')}</Typography.Paragraph>
      <Descriptions
        bordered
        size="small"
        column={1}
        title={t('work.general')}
        items={[
          { key: 'last', label: t('device.field.LastWorkTime'), children: none(w.LastWorkTime) },
          { key: 'battery', label: t('device.field.BatteryType'), children: t(`batteryType.${w.BatteryType}`, { defaultValue: String(w.BatteryType) }) },
        ]}
      />
      <ScheduleCompare imei={imei} />
      <Descriptions
        bordered
        size="small"
        column={1}
        title={t('work.gnss')}
        style={{ marginTop: 16 }}
        items={[
          { key: 'mode', label: t('work.mode'), children: <Tag color="cyan" data-testid="gnss-mode">{t(`work.gnssMode.${w.GNSSCollectionMode}`)}</Tag> },
          ...gnss.map((g, i) => ({ key: `g${i}`, ...g })),
        ]}
      />
      <Descriptions
        bordered
        size="small"
        column={1}
        title={t('work.postback')}
        style={{ marginTop: 16 }}
        items={[
          { key: 'mode', label: t('work.mode'), children: t(`work.postbackMode.${w.DataPostbackMode}`) },
          ...(w.DataPostbackMode === 'HOUR'
            ? [{ key: 'hours', label: t('work.postbackHours'), children: <Hours hours={w.PostbackHours} /> }]
            : [
                { key: 'count', label: t('work.packetCount'), children: none(w.PacketCount) },
                { key: 'size', label: t('work.packetSize'), children: none(w.PacketSize !== null ? t('work.bytes', { count: w.PacketSize }) : null) },
              ]),
          { key: 'realtime', label: t('work.realtime'), children: w.Realtime ? t('common.yes') : t('common.no') },
        ]}
      />
      <Descriptions
        bordered
        size="small"
        column={1}
        title={t('work.acc')}
        style={{ marginTop: 16 }}
        items={[
          { key: 'enabled', label: t('work.accEnabled'), children: w.AccEnabled ? t('common.on') : t('common.off') },
          ...(w.AccEnabled
            ? [
                { key: 'follow', label: t('work.accFollow'), children: w.AccFollowGNSS ? t('common.yes') : t('common.no') },
                { key: 'hz', label: t('work.accFrequency'), children: none(w.AccFrequencyHz !== null ? `${w.AccFrequencyHz} Hz` : null) },
                { key: 'interval', label: t('work.accInterval'), children: none(w.AccIntervalMinutes !== null ? t('work.minutes', { count: w.AccIntervalMinutes }) : null) },
              ]
            : []),
        ]}
      />
    </div>
  );
}
