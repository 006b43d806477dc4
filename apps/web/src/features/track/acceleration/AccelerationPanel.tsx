import { DownloadOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { ACCELERATION_BINARY_MAX_DAYS, type AccelerationBurst, parseTime } from '@wildtrack/contract';
import { Alert, Button, Card, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useServerTable } from '../../../components/serverTable';
import { useZone } from '../../../lib/session';
import { useTracks } from '../../../lib/tracks';
import type { PointColoring } from '../components/TrackMap';
import { Actogram } from './Actogram';
import { type BurstSortField, useBurstPage, useBurstSeries, useDownloadBursts } from './api';
import { ArchiveDrawer } from './ArchiveDrawer';
import { BurstViewer } from './BurstViewer';
import { setAccelerationMoment } from './markStore';
import { OdbaOverview } from './OdbaOverview';
import { type ActogramCell, actogramOf, cellRange } from './model';
import './acceleration.css';

const TrackMap = lazy(() => import('../components/TrackMap'));
const DAY_MS = 86_400_000;

export interface AccelerationPanelProps {
  /** The device (it has an acceleration sensor flag). */
  imei: string;
  /** The range's start and end, texts in the user's zone ('YYYY-MM-DD HH:mm:ss'), as /track resolves them. */
  start: string;
  end: string;
}

/**
 * Acceleration on /track as researchers read it (issue 13 item 3): the day × hour actogram of mean ODBA
 * over the range (a cell opens its bursts), the server-paged burst list, a burst's viewer (X/Y/Z and
 * ODBA over its samples), and the device's track beside them, marked where the animal was at the sample
 * hovered or played. The range's bursts download as CSV; the daily archives are listed in a drawer.
 */
export function AccelerationPanel({ imei, start, end }: AccelerationPanelProps) {
  const { t } = useTranslation();
  const zone = useZone();
  const [cell, setCell] = useState<ActogramCell | null>(null);
  const listRange = cell ? cellRange(cell) : { start, end };
  const table = useServerTable<BurstSortField>(`${imei}|${listRange.start}|${listRange.end}`);
  const page = useBurstPage({ imei, ...listRange, ...table.paging });
  const [openId, setOpenId] = useState<string | null>(null);
  const [archivesOpen, setArchivesOpen] = useState(false);
  const [coloring, setColoring] = useState<PointColoring>('time');
  const save = useDownloadBursts();

  const from = parseTime(start, zone);
  const to = parseTime(end, zone);
  const tooLong = from !== null && to !== null && to - from > ACCELERATION_BINARY_MAX_DAYS * DAY_MS + DAY_MS;
  const series = useBurstSeries(tooLong ? null : { imei, start, end });
  const actogram = useMemo(
    () => (series.data ? actogramOf(series.data.series.start, series.data.series.meanOdba, series.data.series.burstCount, start, end, zone) : null),
    [series.data, start, end, zone],
  );
  const { tracks, isFetching: trackLoading, error: trackError } = useTracks({ imeis: [imei], start, end });
  const track = tracks[0];

  const rows = page.data?.List ?? [];
  const total = page.data?.Total ?? 0;
  const open = rows.find((r) => r.Id === openId) ?? null;

  const columns: ColumnsType<AccelerationBurst> = useMemo(
    () => [
      { key: 'Time', dataIndex: 'Time', title: t('acceleration.col.time'), sorter: true, sortOrder: table.sortOrderOf('Time'), width: 170, className: 'wt-mono' },
      { key: 'Frequency', dataIndex: 'Frequency', title: t('acceleration.col.frequency'), width: 90, render: (v: number) => `${v} Hz` },
      { key: 'Axes', dataIndex: 'Axes', title: t('acceleration.col.axes'), width: 70 },
      { key: 'SampleCount', dataIndex: 'SampleCount', title: t('acceleration.col.samples'), width: 90 },
      {
        key: 'MeanODBA',
        dataIndex: 'MeanODBA',
        title: t('acceleration.col.meanOdba'),
        sorter: true,
        sortOrder: table.sortOrderOf('MeanODBA'),
        width: 120,
        render: (v: number) => `${v.toFixed(3)} g`,
      },
    ],
    [t, table],
  );

  const list =
    page.isError && !page.data ? (
      <ErrorState title={t('acceleration.loadError')} error={page.error} onRetry={() => void page.refetch()} />
    ) : (
      <Table<AccelerationBurst>
        size="small"
        rowKey="Id"
        data-testid="burst-list"
        columns={columns}
        dataSource={rows}
        loading={page.isFetching}
        onChange={table.onChange}
        pagination={table.pagination(total, (n) => t('acceleration.total', { count: n }))}
        rowClassName={(r) => (r.Id === openId ? 'wt-acc-row-open' : '')}
        onRow={(r) =>
          ({
            onClick: () => setOpenId(r.Id === openId ? null : r.Id),
            // Hovering a burst's row points the map at its start.
            onMouseEnter: () => setAccelerationMoment(Number(r.Id), 'list'),
            onMouseLeave: () => setAccelerationMoment(null, 'list'),
            'data-burst': r.Id,
          }) as React.HTMLAttributes<HTMLElement>
        }
        locale={{
          emptyText: page.isPending ? (
            <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('acceleration.noBursts')} />
          ),
        }}
      />
    );

  const actogramCard = (
    <Card size="small" title={t('acceleration.actogram.title')} className="wt-acc-card">
      {tooLong ? (
        <Alert type="info" showIcon message={t('acceleration.actogram.tooLong', { days: ACCELERATION_BINARY_MAX_DAYS })} />
      ) : series.isError ? (
        <ErrorState title={t('acceleration.actogram.loadError')} error={series.error} onRetry={() => void series.refetch()} />
      ) : !actogram ? (
        <div className="wt-acc-center">
          <Spin />
        </div>
      ) : series.data && series.data.series.burstCount === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('acceleration.noBursts')} />
      ) : (
        <>
          <Actogram
            data={actogram}
            chosen={cell}
            onChoose={(c) => {
              setOpenId(null);
              setCell(cell && cell.day === c.day && cell.hour === c.hour ? null : c);
            }}
          />
          {series.data ? (
            <>
              <Typography.Text type="secondary" className="wt-acc-overview-title">
                {t('acceleration.overview.title', { count: series.data.series.sampleCount })}
              </Typography.Text>
              <OdbaOverview envelope={series.data.envelope} samples={series.data.series.sampleCount} zone={zone} />
            </>
          ) : null}
        </>
      )}
    </Card>
  );

  return (
    <div className="wt-acc-panel" data-testid="acceleration-panel" data-imei={imei} data-total={total} data-series-bursts={series.data?.series.burstCount ?? ''}>
      <div className="wt-acc-bar">
        <Space wrap>
          {cell ? (
            <Tag closable color="cyan" data-testid="actogram-filter" onClose={() => setCell(null)}>
              {t('acceleration.actogram.showing', { range: `${cellRange(cell).start.slice(0, 16)} – ${cellRange(cell).end.slice(11, 16)}` })}
            </Tag>
          ) : null}
        </Space>
        <Space wrap>
          <Button icon={<DownloadOutlined />} data-testid="acceleration-download" loading={save.isPending} onClick={() => save.mutate({ imei, start, end })}>
            {t('acceleration.download')}
          </Button>
          <Button icon={<FolderOpenOutlined />} data-testid="acceleration-archives" onClick={() => setArchivesOpen(true)}>
            {t('acceleration.archive.button')}
          </Button>
        </Space>
      </div>
      <div className="wt-acc-split">
        <div className="wt-acc-main">
          {actogramCard}
          {list}
          {open ? <BurstViewer key={open.Id} burst={open} /> : <Typography.Text type="secondary">{t('acceleration.viewer.pick')}</Typography.Text>}
        </div>
        <div className="wt-acc-map">
          <Suspense
            fallback={
              <div className="wt-track-map wt-track-map-loading">
                <Spin />
              </div>
            }
          >
            <TrackMap
              track={track}
              coloring={coloring}
              onColoring={setColoring}
              activeIndex={-1}
              flyTo={null}
              onPick={() => undefined}
              zone={zone}
              loading={trackLoading}
              failed={!!trackError}
            />
          </Suspense>
        </div>
      </div>
      <ArchiveDrawer imei={imei} open={archivesOpen} onClose={() => setArchivesOpen(false)} />
    </div>
  );
}

export default AccelerationPanel;
