import { CheckOutlined, SettingOutlined } from '@ant-design/icons';
import { EventType, type Event } from '@wildtrack/contract';
import { Button, DatePicker, Empty, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../../components/ExportButton';
import { ErrorState } from '../../../components/ErrorState';
import { useServerTable } from '../../../components/serverTable';
import { useZone } from '../../../lib/session';
import { useEventPage, useMarkAllEventsRead, useMarkEventsRead, useSubscriptions } from '../api';
import { SubscribeDialog } from './SubscribeDialog';

const TYPE_NAMES: Record<number, string> = { [EventType.Unknown]: 'Unknown', [EventType.Fence]: 'Fence', [EventType.Instr]: 'Instr', [EventType.FixUpdate]: 'FixUpdate', [EventType.Device]: 'Device' };
const TYPE_COLORS: Record<number, string> = { [EventType.Fence]: 'green', [EventType.Instr]: 'blue', [EventType.FixUpdate]: 'cyan', [EventType.Device]: 'orange' };
const TIME = 'YYYY-MM-DD HH:mm:ss';

type ReadFilter = 'all' | 'unread' | 'read';

/**
 * The event notifications (§1, §3 Event): a server-paged table of the events of every device the user can
 * read, newest first, times in the user's zone; filters by type, device, range and read state; mark one or
 * all read; the per-device subscription settings.
 */
export function EventTab() {
  const { t } = useTranslation();
  const zone = useZone();
  const [eventType, setEventType] = useState<number | undefined>(undefined);
  const [imei, setImei] = useState<string | undefined>(undefined);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [read, setRead] = useState<ReadFilter>('all');
  const [subscribeOpen, setSubscribeOpen] = useState(false);
  const filters = useMemo(
    () => ({
      ...(eventType !== undefined ? { eventType: eventType as EventType } : {}),
      ...(imei ? { imei } : {}),
      ...(range ? { startTime: range[0].format(TIME), endTime: range[1].format(TIME) } : {}),
      ...(read === 'all' ? {} : { viewed: read === 'read' ? (1 as const) : (0 as const) }),
      timeZone: zone,
    }),
    [eventType, imei, range, read, zone],
  );
  const table = useServerTable(JSON.stringify(filters));
  const page = useEventPage({ ...filters, currentPage: table.paging.currentPage, pageSize: table.paging.pageSize as 20 });
  const devices = useSubscriptions();
  const markRead = useMarkEventsRead();
  const markAll = useMarkAllEventsRead();

  const columns: TableColumnsType<Event> = [
    { title: t('notice.time'), dataIndex: 'HappenTime', width: 170 },
    { title: t('notice.device'), key: 'device', width: 180, render: (_, e) => <span title={e.IMEI}>{e.Caption || e.IMEI}</span> },
    { title: t('notice.type'), dataIndex: 'Type', width: 120, render: (type: number) => <Tag color={TYPE_COLORS[type]}>{t(`notice.types.${TYPE_NAMES[type] ?? 'Unknown'}`)}</Tag> },
    { title: t('notice.eventTitle'), dataIndex: 'Title', width: 220 },
    { title: t('notice.content'), dataIndex: 'Content' },
    {
      title: t('notice.readState'),
      key: 'viewed',
      width: 150,
      render: (_, e) =>
        e.Viewed === 0 ? (
          <Space size={4}>
            <Tag color="red">{t('notice.unread')}</Tag>
            <Button size="small" type="link" icon={<CheckOutlined />} onClick={() => markRead.mutate([e.IdStr])} aria-label={t('notice.markReadOne', { title: e.Title })}>
              {t('notice.markRead')}
            </Button>
          </Space>
        ) : (
          <Tag>{t('notice.read')}</Tag>
        ),
    },
  ];

  return (
    <div data-testid="event-tab" data-filter-type={eventType ?? ''} data-filter-read={read} data-total={page.data?.Total ?? ''} data-settled={page.isFetching || page.isPlaceholderData ? 'false' : 'true'}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('notice.type')}
          data-testid="event-filter-type"
          style={{ minWidth: 150 }}
          value={eventType ?? -1}
          onChange={(v: number) => setEventType(v === -1 ? undefined : v)}
          options={[{ value: -1, label: t('notice.allTypes') }, ...[EventType.Fence, EventType.Instr, EventType.FixUpdate, EventType.Device].map((v) => ({ value: v, label: t(`notice.types.${TYPE_NAMES[v]}`) }))]}
        />
        <Select
          aria-label={t('notice.device')}
          data-testid="event-filter-device"
          style={{ minWidth: 200 }}
          showSearch
          optionFilterProp="label"
          value={imei ?? ''}
          loading={devices.isPending}
          onChange={(v: string) => setImei(v || undefined)}
          options={[{ value: '', label: t('notice.allDevices') }, ...(devices.data ?? []).map((d) => ({ value: d.IMEI, label: `${d.Caption} (${d.IMEI})` }))]}
        />
        <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v?.[0] && v[1] ? [v[0], v[1]] : null)} aria-label={t('notice.range')} />
        <Select
          aria-label={t('notice.readState')}
          data-testid="event-filter-read"
          style={{ minWidth: 120 }}
          value={read}
          onChange={(v: ReadFilter) => setRead(v)}
          options={(['all', 'unread', 'read'] as const).map((v) => ({ value: v, label: t(`notice.readFilter.${v}`) }))}
        />
        <Button icon={<CheckOutlined />} loading={markAll.isPending} onClick={() => markAll.mutate({ ...(imei ? { imei } : {}), ...(eventType !== undefined ? { eventType: eventType as EventType } : {}) })} data-testid="event-mark-all">
          {t('notice.markAllRead')}
        </Button>
        <ExportButton
          imei={imei}
          name={(devices.data ?? []).find((d) => d.IMEI === imei)?.Caption}
          kind="event"
          start={range?.[0].format(TIME)}
          end={range?.[1].format(TIME)}
        />
        <Button icon={<SettingOutlined />} onClick={() => setSubscribeOpen(true)} data-testid="event-subscribe">
          {t('notice.subscribe.open')}
        </Button>
      </Space>
      {page.isError && !page.data ? (
        <ErrorState title={t('notice.eventsLoadError')} error={page.error} onRetry={() => void page.refetch()} />
      ) : (
        <Table<Event>
          rowKey="IdStr"
          size="small"
          data-testid="event-table"
          columns={columns}
          dataSource={page.data?.List ?? []}
          loading={page.isFetching}
          onChange={table.onChange}
          rowClassName={(e) => (e.Viewed === 0 ? 'wt-event-unread' : '')}
          locale={{ emptyText: <Empty description={t('notice.noEvents')} /> }}
          pagination={table.pagination(page.data?.Total ?? 0, (total) => t('notice.total', { total }))}
          scroll={{ x: 900 }}
        />
      )}
      <SubscribeDialog open={subscribeOpen} onClose={() => setSubscribeOpen(false)} />
    </div>
  );
}
