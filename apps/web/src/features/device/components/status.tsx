import { batteryHealth, batteryLevelOf, BatteryType, DeviceStatus } from '@wildtrack/contract';
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

/**
 * The status the device was given (§4). A device set as working that never reported is not shown green:
 * nothing says it works yet (issue 12).
 */
export function StatusTag({ status, reported = true }: { status: number; reported?: boolean }) {
  const { t } = useTranslation();
  const known = status in STATUS_COLOR;
  const unproven = !reported && status === DeviceStatus.Working;
  const tag = (
    <Tag color={unproven ? 'default' : (STATUS_COLOR[status] ?? 'default')} data-testid="status-tag" data-status={status} data-reported={reported ? '1' : '0'}>
      {known ? t(`status.${status}`) : t('status.unknown', { code: status })}
    </Tag>
  );
  return unproven ? <Tooltip title={t('deviceState.unproven')}>{tag}</Tooltip> : tag;
}

/** The battery level on the curve of the battery type (the server's level when it sent one). */
export function batteryLevel(voltage: number | null, level?: number | null, batteryType: number = BatteryType.Unknown): number | null {
  if (level !== undefined && level !== null) return level;
  return voltage === null ? null : batteryLevelOf(voltage, batteryType);
}

const LEVEL_COLOR = (percent: number): string => (percent >= 50 ? '#16a34a' : percent >= 30 ? '#ca8a04' : percent >= 10 ? '#ea580c' : '#dc2626');

/** Level bars, percent and volts; the tooltip says how the battery type reads the voltage. */
export function Battery({ voltage, level, batteryType = BatteryType.Unknown }: { voltage: number | null; level?: number | null; batteryType?: number }) {
  const { t } = useTranslation();
  const percent = batteryLevel(voltage, level, batteryType);
  if (percent === null || voltage === null) return <span className="wt-muted" data-testid="battery-none">{t('device.noVoltage')}</span>;
  const volts = voltage.toFixed(2);
  const health = batteryHealth(percent);
  const type = t(`batteryType.${batteryType}`, { defaultValue: String(batteryType) });
  return (
    <Tooltip title={t('deviceState.batteryTip', { type, voltage: volts, health: t(`deviceState.health.${health}`) })}>
      <span className="wt-battery" data-testid="battery" data-percent={percent} data-health={health} data-voltage={volts}>
        <Progress percent={percent} steps={4} size={[6, 12]} showInfo={false} strokeColor={LEVEL_COLOR(percent)} aria-label={t('device.col.battery')} />
        <span className="wt-battery-text">{percent}%</span>
        <span className="wt-volts">{t('deviceState.volts', { voltage: volts })}</span>
      </span>
    </Tooltip>
  );
}
