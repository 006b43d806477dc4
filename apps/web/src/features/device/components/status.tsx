import { batteryPercent, DeviceStatus } from '@wildtrack/contract';
import { Progress, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** Tag colours of the work statuses of §4. */
const STATUS_COLOR: Record<number, string> = {
  [DeviceStatus.Stock]: 'default',
  [DeviceStatus.NotMounted]: 'blue',
  [DeviceStatus.Working]: 'green',
  [DeviceStatus.UnderMaintenance]: 'orange',
  [DeviceStatus.Retrieved]: 'purple',
  [DeviceStatus.ShutDown]: 'default',
  [DeviceStatus.Malfunction]: 'red',
  [DeviceStatus.ServicesUnavailable]: 'volcano',
  [DeviceStatus.Virtual]: 'cyan',
};

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const known = status in STATUS_COLOR;
  return (
    <Tag color={STATUS_COLOR[status] ?? 'default'} data-testid="status-tag" data-status={status}>
      {known ? t(`status.${status}`) : t('status.unknown', { code: status })}
    </Tag>
  );
}

/** §9 battery levels: percent from the voltage (the server's level when it sent one). */
export function batteryLevel(voltage: number | null, level?: number | null): number | null {
  if (level !== undefined && level !== null) return level;
  return voltage === null ? null : batteryPercent(voltage);
}

const LEVEL_COLOR = (percent: number): string => (percent >= 50 ? '#16a34a' : percent >= 30 ? '#ca8a04' : percent >= 10 ? '#ea580c' : '#dc2626');

export function Battery({ voltage, level }: { voltage: number | null; level?: number | null }) {
  const { t } = useTranslation();
  const percent = batteryLevel(voltage, level);
  if (percent === null || voltage === null) return <span className="wt-muted">{t('device.noVoltage')}</span>;
  return (
    <Tooltip title={t('device.voltage', { voltage: voltage.toFixed(2) })}>
      <span className="wt-battery" data-testid="battery" data-percent={percent}>
        <Progress percent={percent} steps={4} size={[6, 12]} showInfo={false} strokeColor={LEVEL_COLOR(percent)} />
        <span className="wt-battery-text">{percent}%</span>
      </span>
    </Tooltip>
  );
}
