import {
  AudioOutlined,
  BulbOutlined,
  CloudOutlined,
  CompassOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  FireOutlined,
  PictureOutlined,
  SunOutlined,
  ThunderboltOutlined,
  VerticalAlignBottomOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { sensorNames, type SensorFlagName } from '@wildtrack/contract';
import { Space, Tooltip } from 'antd';
import type { ComponentType } from 'react';
import { useKindTexts } from '../i18n/sensor-kinds';

/** One icon per sensor support flag (§3), named by the tooltip. */
export const SENSOR_ICON: Record<SensorFlagName, ComponentType> = {
  GNSS: EnvironmentOutlined,
  Acceleration: ThunderboltOutlined,
  OldAcceleration: ThunderboltOutlined,
  Temperature: FireOutlined,
  WaterDepth: VerticalAlignBottomOutlined,
  Pressure: DashboardOutlined,
  Image: PictureOutlined,
  Video: VideoCameraOutlined,
  Audio: AudioOutlined,
  RedInfraredLight: BulbOutlined,
  LightIntensity: SunOutlined,
  Humidity: CloudOutlined,
  Magnetism: CompassOutlined,
};

/** The sensors a device carries, as icons with their names in tooltips. */
export function SensorIcons({ mask }: { mask: number }) {
  const texts = useKindTexts();
  const names = sensorNames(mask);
  if (names.length === 0) return <span className="wt-muted">—</span>;
  return (
    <Space size={6} wrap className="wt-sensor-icons" aria-label={names.map((n) => texts.flag(n, 'sensor')).join(', ')}>
      {names.map((name) => {
        const Icon = SENSOR_ICON[name];
        return (
          <Tooltip key={name} title={texts.flag(name, 'sensor')}>
            <span className="wt-sensor-icon" data-sensor={name} aria-label={texts.flag(name, 'sensor')} role="img">
              <Icon />
            </span>
          </Tooltip>
        );
      })}
    </Space>
  );
}
