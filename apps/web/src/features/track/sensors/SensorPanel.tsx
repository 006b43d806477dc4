import { ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { formatTime, parseTime, SERIES_WIDTH, type SensorKindName } from '@wildtrack/contract';
import { Button, Empty, Space, Spin, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useServerTable } from '../../../components/serverTable';
import { useKindTexts } from '../../../i18n/sensor-kinds';
import { type ChartView, useTrackKind } from '../../../lib/positionSelection';
import { useZone } from '../../../lib/session';
import { type SensorRecord, useSensorPage, useSensorSeries } from './api';
import { clampView, SensorChart } from './SensorChart';
import { KIND_VALUES, type SensorSortField } from './kinds';
import './sensors.css';

export interface SensorPanelProps {
  imei: string;
  kind: SensorKindName;
  /** The range, texts in the user's zone ('YYYY-MM-DD HH:mm:ss'), as /track resolves it. */
  start: string;
  end: string;
}

/**
 * The chart's view of the range: the kept zoom if it overlaps the range (kept inside it: a link's zoom under
 * a span that has moved on since), else none. min and max are the range's ends in epoch ms.
 */
export function viewOf(zoom: ChartView | null, min: number, max: number): ChartView | null {
  if (!zoom || zoom.to <= min || zoom.from >= max) return null;
  const view = clampView(zoom.from, zoom.to, min, max);
  return view.from <= min && view.to >= max ? null : view;
}

/** What the chart and the table ask for: the visible range (the zoom), as the API's texts in the zone. */
export function visibleRange(start: string, end: string, view: ChartView | null, zone: string): { start: string; end: string } {
  return view ? { start: formatTime(view.from, zone), end: formatTime(view.to, zone) } : { start, end };
}

/** Widths are asked in steps of this many pixels, so that a small resize does not ask again. */
const WIDTH_STEP = 32;

/**
 * One sensor kind of a device over the range (§3 Other sensor records): a chart of the series (records,
 * or the server's envelope when they outnumber the pixels; zooming asks again for the visible range) and
 * the records of the visible range as a server-paged table below it with the §9 page sizes: zooming the
 * chart pages the table over the zoomed range. The zoom is the view context's (kept in the URL).
 */
export function SensorPanel({ imei, kind, start, end }: SensorPanelProps) {
  const { t } = useTranslation();
  const texts = useKindTexts();
  const zone = useZone();
  const min = parseTime(start, zone) ?? 0;
  const max = (parseTime(end, zone) ?? 0) + 999;
  const { zoom, setZoom: setView } = useTrackKind();
  const view = viewOf(zoom, min, max);
  const visible = visibleRange(start, end, view, zone);
  const rangeKey = `${imei}|${kind}|${visible.start}|${visible.end}`;
  const [width, setWidth] = useState(0);
  const asked = width > 0 ? Math.min(SERIES_WIDTH.max, Math.max(SERIES_WIDTH.min, Math.ceil(width / WIDTH_STEP) * WIDTH_STEP)) : 0;
  const from = view?.from ?? min;
  const to = view?.to ?? max;
  const series = useSensorSeries(
    asked > 0 ? { imei, kind, start: visible.start, end: visible.end, width: asked } : null,
  );
  const data = series.data;
  const chartState = series.isError && !data ? 'error' : !data ? 'loading' : data.count === 0 ? 'empty' : series.isFetching ? 'refreshing' : 'ready';

  const table = useServerTable<SensorSortField>(rangeKey);
  const page = useSensorPage({ imei, kind, start: visible.start, end: visible.end, ...table.paging });
  const rows = page.data?.List ?? [];
  const total = page.data?.Total ?? 0;
  const columns: ColumnsType<SensorRecord> = useMemo(
    () => [
      { key: 'Time', dataIndex: 'Time', title: t('trackSensors.time'), sorter: true, sortOrder: table.sortOrderOf('Time'), width: 170, className: 'wt-mono' },
      ...KIND_VALUES[kind].map((v) => ({
        key: v.field,
        dataIndex: v.field,
        title: `${v.label[texts.lang]} (${v.unit[texts.lang]})`,
        sorter: true,
        sortOrder: table.sortOrderOf(v.field),
        align: 'right' as const,
        render: (x: number) => (typeof x === 'number' ? Number(x.toFixed(2)).toLocaleString() : ''),
      })),
    ],
    [t, table, kind, texts],
  );

  const zoomed = view !== null;
  // The keyboard's way in (drag and wheel need a pointer): the middle half of what is shown.
  const zoomIn = () => {
    const quarter = (to - from) / 4;
    setView(clampView(from + quarter, to - quarter, min, max));
  };
  const pan = (dir: -1 | 1) => {
    const span = to - from;
    setView(clampView(from + (dir * span) / 2, to + (dir * span) / 2, min, max));
  };

  return (
    <div className="wt-sensor-panel" data-testid="sensor-panel" data-kind={kind} data-imei={imei}>
      <div
        className="wt-sensor-chart"
        data-testid="sensor-chart"
        data-state={chartState}
        data-points={data?.count ?? 0}
        data-total={data?.total ?? 0}
        data-envelope={data && data.bucketMs > 0 ? 'yes' : 'no'}
        data-zoomed={zoomed ? 'yes' : 'no'}
        data-from={from}
        data-to={to}
      >
        <div className="wt-sensor-chart-head">
          <Typography.Text type="secondary" data-testid="sensor-chart-summary">
            {data && data.count > 0
              ? data.bucketMs > 0
                ? t('trackSensors.envelopeSummary', { count: data.total, buckets: data.count })
                : t('trackSensors.pointsSummary', { count: data.total })
              : ' '}
          </Typography.Text>
          <Space size={4}>
            <Typography.Text type="secondary" className="wt-sensor-hint">
              {t('trackSensors.zoomHint')}
            </Typography.Text>
            <Tooltip title={t('trackSensors.panLeft')}>
              <Button size="small" aria-label={t('trackSensors.panLeft')} disabled={!zoomed || from <= min} onClick={() => pan(-1)}>
                ‹
              </Button>
            </Tooltip>
            <Tooltip title={t('trackSensors.panRight')}>
              <Button size="small" aria-label={t('trackSensors.panRight')} disabled={!zoomed || to >= max} onClick={() => pan(1)}>
                ›
              </Button>
            </Tooltip>
            <Tooltip title={t('trackSensors.zoomIn')}>
              <Button size="small" icon={<ZoomInOutlined />} aria-label={t('trackSensors.zoomIn')} data-testid="sensor-zoom-in" disabled={to - from <= 120_000} onClick={zoomIn} />
            </Tooltip>
            <Tooltip title={t('trackSensors.resetZoom')}>
              <Button size="small" icon={<ZoomOutOutlined />} aria-label={t('trackSensors.resetZoom')} data-testid="sensor-zoom-reset" disabled={!zoomed} onClick={() => setView(null)} />
            </Tooltip>
          </Space>
        </div>
        <div className="wt-sensor-chart-body">
          <SensorChart kind={kind} series={data} from={from} to={to} min={min} max={max} zone={zone} onView={setView} onWidth={setWidth} />
          {chartState === 'loading' ? (
            <div className="wt-sensor-chart-cover">
              <Spin />
            </div>
          ) : chartState === 'empty' ? (
            <div className="wt-sensor-chart-cover">
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(zoomed ? 'trackSensors.emptyView' : 'trackSensors.empty', { kind: texts.kind(kind, 'trackSensors.kind') })} />
            </div>
          ) : chartState === 'error' ? (
            <div className="wt-sensor-chart-cover">
              <ErrorState title={t('trackSensors.loadError')} error={series.error} onRetry={() => void series.refetch()} />
            </div>
          ) : null}
        </div>
      </div>
      {page.isError && !page.data ? (
        <ErrorState title={t('trackSensors.loadError')} error={page.error} onRetry={() => void page.refetch()} />
      ) : (
        <div data-testid="sensor-table">
          <Table<SensorRecord>
            size="small"
            rowKey={(r) => JSON.stringify(r)}
            columns={columns}
            dataSource={rows}
            loading={page.isFetching}
            onChange={table.onChange}
            pagination={table.pagination(total, (n) => t('trackSensors.total', { count: n }))}
            locale={{
              emptyText: page.isPending ? (
                <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('trackSensors.empty', { kind: texts.kind(kind, 'trackSensors.kind') })} />
              ),
            }}
          />
        </div>
      )}
    </div>
  );
}
