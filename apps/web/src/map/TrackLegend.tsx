import { formatTime } from '@wildtrack/contract';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './map.css';

/** One device in a map's legend: where its marker is (index into its fixes) and the fix's time. */
export interface TrackLegendRow {
  imei: string;
  caption: string;
  color: string;
  count: number;
  /** The fix the device's marker stands at, -1 before its first fix during a replay. */
  index: number;
  time: number | null;
  /** What else the map tells of the fix (the globe: its height). */
  extra?: ReactNode;
  /** More data attributes for tests to read. */
  data?: Record<`data-${string}`, string | number>;
}

/**
 * The devices a map draws, in their colours, each with its number of fixes and, during a replay, the
 * time of the fix it is at on the shared clock. The rows' data attributes (imei, index, fix time) let
 * tests check the devices move in sync. Shared by /map2d and /map3d.
 */
export function TrackLegend({ rows, replaying, zone, testId }: { rows: readonly TrackLegendRow[]; replaying: boolean; zone: string; testId: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="wt-map-legend" data-testid={testId}>
      {rows.map((row) => (
        <div key={row.imei} className="wt-map-legend-row" data-imei={row.imei} data-index={row.index} data-fix-time={row.time ?? ''} data-count={row.count} {...row.data}>
          <span className="wt-map-legend-swatch" style={{ background: row.color }} />
          <span className="wt-map-legend-name">{row.caption || row.imei}</span>
          <Tag variant="filled">{t('map.fixCount', { count: row.count, n: row.count.toLocaleString(i18n.language) })}</Tag>
          {row.extra}
          {replaying ? <span className="wt-map-legend-time">{row.time === null ? t('map.notStarted') : formatTime(row.time, zone)}</span> : null}
        </div>
      ))}
    </div>
  );
}
