import { type Behavior, DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, type Poi } from '@wildtrack/contract';
import { Image, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { resolveRange, usePositionSelection } from '../../../lib/positionSelection';
import { useZone } from '../../../lib/session';
import { useBehaviorFilters, useBehaviors, usePois } from '../api/field';

type PageSize = (typeof PAGE_SIZE_OPTIONS)[number];
const position = (lon: number, lat: number) => `${lon.toFixed(5)}, ${lat.toFixed(5)}`;

/**
 * A phone's field records (§3 POI, Behavior) over the range chosen for positions: its points of interest
 * with their photos, and its behaviour observations with their motion, filtered by motion and recorder.
 */
export function FieldRecordsTab({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'pois' | 'behaviors'>('behaviors');
  const zone = useZone();
  const { start, end } = resolveRange(usePositionSelection().range, zone);
  return (
    <div data-testid="field-records">
      <Space className="wt-field-head" wrap>
        <Segmented<'pois' | 'behaviors'>
          value={view}
          onChange={setView}
          options={[
            { value: 'behaviors', label: t('fieldRecords.behaviors') },
            { value: 'pois', label: t('fieldRecords.pois') },
          ]}
        />
        <Typography.Text type="secondary">{t('fieldRecords.range', { start, end })}</Typography.Text>
      </Space>
      {view === 'pois' ? <PoiTable imei={imei} start={start} end={end} /> : <BehaviorTable imei={imei} start={start} end={end} />}
    </div>
  );
}

function PoiTable({ imei, start, end }: { imei: string; start: string; end: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState<{ current: number; size: PageSize }>({ current: 1, size: DEFAULT_PAGE_SIZE as PageSize });
  const pois = usePois({ imei, start, end }, page.current, page.size);
  if (pois.isError) return <ErrorState title={t('fieldRecords.loadError')} error={pois.error} onRetry={() => void pois.refetch()} />;
  return (
    <Table<Poi>
      data-testid="poi-table"
      size="small"
      rowKey="IdStr"
      loading={pois.isFetching}
      dataSource={pois.data?.List ?? []}
      locale={{ emptyText: pois.isPending ? ' ' : t('fieldRecords.noPois') }}
      pagination={{
        current: page.current,
        pageSize: page.size,
        total: pois.data?.Total ?? 0,
        pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
        showSizeChanger: true,
        onChange: (current, size) => setPage({ current, size: size as PageSize }),
      }}
      columns={[
        { key: 'time', title: t('fieldRecords.col.recordTime'), dataIndex: 'RecordTime', width: 170 },
        { key: 'name', title: t('fieldRecords.col.name'), dataIndex: 'Name' },
        { key: 'target', title: t('fieldRecords.col.target'), dataIndex: 'Target' },
        { key: 'recorder', title: t('fieldRecords.col.recorder'), render: (_, p) => p.UserName || p.UserIdStr },
        { key: 'position', title: t('fieldRecords.col.position'), render: (_, p) => <span className="wt-mono">{position(p.Longitude, p.Latitude)}</span> },
        {
          key: 'photos',
          title: t('fieldRecords.col.photos'),
          render: (_, p) =>
            p.Photos.length === 0 ? null : (
              <Image.PreviewGroup>
                {p.Photos.map((url, i) => (
                  <Image key={url} src={url} width={48} height={36} alt={t('fieldRecords.photoOf', { name: p.Name, n: i + 1 })} />
                ))}
              </Image.PreviewGroup>
            ),
        },
        { key: 'address', title: t('fieldRecords.col.address'), dataIndex: 'Address', ellipsis: true },
        { key: 'description', title: t('fieldRecords.col.description'), dataIndex: 'Description', ellipsis: true },
      ]}
    />
  );
}

function BehaviorTable({ imei, start, end }: { imei: string; start: string; end: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState<{ current: number; size: PageSize }>({ current: 1, size: DEFAULT_PAGE_SIZE as PageSize });
  const [motionId, setMotionId] = useState<number | undefined>();
  const [recorder, setRecorder] = useState<string | undefined>();
  const filters = useBehaviorFilters(imei);
  const list = useBehaviors({ imei, start, end, currentPage: page.current, pageSize: page.size, motionId, recorder });
  const firstPage = (f: () => void) => {
    f();
    setPage((p) => ({ ...p, current: 1 }));
  };
  return (
    <>
      <Space className="wt-field-filters" wrap>
        <Select<number>
          allowClear
          style={{ minWidth: 160 }}
          aria-label={t('fieldRecords.filterMotion')}
          placeholder={t('fieldRecords.allMotions')}
          data-testid="motion-filter"
          loading={filters.isPending}
          value={motionId}
          onChange={(v) => firstPage(() => setMotionId(v ?? undefined))}
          options={(filters.data?.Motions ?? []).map((m) => ({ value: m.Id, label: m.Name }))}
        />
        <Select<string>
          allowClear
          style={{ minWidth: 160 }}
          aria-label={t('fieldRecords.filterRecorder')}
          placeholder={t('fieldRecords.allRecorders')}
          data-testid="recorder-filter"
          loading={filters.isPending}
          value={recorder}
          onChange={(v) => firstPage(() => setRecorder(v ?? undefined))}
          options={(filters.data?.Recorders ?? []).map((r) => ({ value: r.Recorder, label: r.RecorderName || r.Recorder }))}
        />
      </Space>
      {list.isError ? (
        <ErrorState title={t('fieldRecords.loadError')} error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<Behavior>
          data-testid="behavior-table"
          size="small"
          rowKey="IdStr"
          loading={list.isFetching}
          dataSource={list.data?.List ?? []}
          locale={{ emptyText: list.isPending ? ' ' : t('fieldRecords.noBehaviors') }}
          pagination={{
            current: page.current,
            pageSize: page.size,
            total: list.data?.Total ?? 0,
            pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
            showSizeChanger: true,
            onChange: (current, size) => setPage({ current, size: size as PageSize }),
          }}
          columns={[
            { key: 'start', title: t('fieldRecords.col.startTime'), dataIndex: 'StartTime', width: 170 },
            { key: 'end', title: t('fieldRecords.col.endTime'), dataIndex: 'EndTime', width: 170 },
            { key: 'motion', title: t('fieldRecords.col.motion'), render: (_, b) => <Tag color={b.Motion.IsDefault ? 'blue' : 'purple'}>{b.Motion.Name}</Tag> },
            { key: 'recorder', title: t('fieldRecords.col.recorder'), render: (_, b) => b.RecorderName || b.Recorder },
            { key: 'position', title: t('fieldRecords.col.position'), render: (_, b) => <span className="wt-mono">{position(b.Longitude, b.Latitude)}</span> },
          ]}
        />
      )}
    </>
  );
}
