import { GNSSCollectionMode, HOUR_OPTIONS } from '@wildtrack/contract';
import { Descriptions, Skeleton, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useWorkStatus } from '../api';

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
 * How the device collects and sends data (DeviceWorkStatus, §3): GNSS collection mode with its
 * settings, data postback and acceleration. Read-only here; remote instructions change them.
 */
export function WorkStatusTab({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const status = useWorkStatus(imei);
  if (status.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (status.isError) return <ErrorState title={t('work.loadError')} error={status.error} onRetry={() => void status.refetch()} />;
  const w = status.data;
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
