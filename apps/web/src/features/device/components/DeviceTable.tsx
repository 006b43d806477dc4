import { ROOT_FOLDER_ID, type DeviceDetail } from '@wildtrack/contract';
import { Empty, Table, Tag, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { SensorIcons } from '../../../components/SensorIcons';
import { useServerTable } from '../../../components/serverTable';
import { useScrollRegion } from '../../../lib/scrollRegion';
import { useDeviceList, type SortField } from '../api';
import { RootEmpty } from './RootEmpty';
import { hasReported, LastFix } from './DeviceState';
import { Battery, StatusTag } from './status';

interface Props {
  folderId: string;
  selectedImei: string | null;
  onSelect: (imei: string) => void;
}

/**
 * The selected folder's devices (and those below it), a page at a time (§2.5 Pager: total, quick
 * jumper, page size 20 by default), sorted on the server.
 */
export function DeviceTable({ folderId, selectedImei, onSelect }: Props) {
  const { t } = useTranslation();
  // Another folder starts again at its first page (page size and sort are kept).
  const table = useServerTable<SortField>(folderId);
  const { sortOrderOf } = table;
  const list = useDeviceList({ folderId, ...table.paging });
  // the table's scroll box is a keyboard stop of its own, named, even while it holds no row to focus
  const scrollRegion = useScrollRegion<HTMLDivElement>(t('device.tableRegion'));

  const columns: TableProps<DeviceDetail>['columns'] = [
    {
      key: 'Caption',
      title: t('device.col.name'),
      sorter: true,
      sortOrder: sortOrderOf('Caption'),
      width: 240,
      ellipsis: true,
      render: (_, d) => (
        <span className="wt-device-name">
          <Typography.Text strong>{d.RemarkName || d.Caption}</Typography.Text>
          {d.RemarkName && d.RemarkName !== d.Caption ? <Typography.Text type="secondary"> · {d.Caption}</Typography.Text> : null}
          {d.Example ? (
            <Tag className="wt-tag-inline" color="cyan">
              {t('device.example')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    { key: 'IMEI', dataIndex: 'IMEI', title: 'IMEI', sorter: true, sortOrder: sortOrderOf('IMEI'), width: 170, className: 'wt-mono' },
    { key: 'ModelName', dataIndex: 'ModelName', title: t('device.col.model'), sorter: true, sortOrder: sortOrderOf('ModelName'), ellipsis: true, responsive: ['xl'] },
    { key: 'Status', title: t('device.col.status'), sorter: true, sortOrder: sortOrderOf('Status'), width: 120, render: (_, d) => <StatusTag status={d.Status} reported={hasReported(d)} /> },
    {
      key: 'Voltage',
      title: t('device.col.battery'),
      sorter: true,
      sortOrder: sortOrderOf('Voltage'),
      width: 160,
      render: (_, d) => (hasReported(d) ? <Battery voltage={d.Voltage} level={d.BatteryLevel} batteryType={d.BatteryType} /> : <span className="wt-muted">—</span>),
    },
    {
      key: 'LastWorkTime',
      title: t('device.col.lastWork'),
      sorter: true,
      sortOrder: sortOrderOf('LastWorkTime'),
      width: 190,
      // how long ago, with the mark judged against the device's own schedule (the time in the tooltip)
      render: (_, d) => <LastFix at={d.LastWorkAt} gapMinutes={d.ReportGapMinutes} compact />,
    },
    { key: 'Sensor', title: t('device.col.sensors'), width: 150, render: (_, d) => <SensorIcons mask={d.Sensor} /> },
  ];

  if (list.isError && !list.data) return <ErrorState title={t('device.listError')} error={list.error} onRetry={() => void list.refetch()} />;
  // the organisation's own devices, none yet: how to get some, in full (not inside the table's scroll box)
  if (folderId === ROOT_FOLDER_ID && list.data && list.data.Total === 0 && !list.isPlaceholderData) return <RootEmpty />;
  // a folder without devices: said plainly, not as a table's placeholder (its header is wider than the pane, so
  // the empty body was a sideways scroll box with nothing a keyboard can reach: axe's scrollable-region-focusable)
  if (list.data && list.data.Total === 0 && !list.isPlaceholderData && !list.isFetching)
    return <Empty className="wt-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} data-testid="device-table-empty" description={t('device.folderEmpty')} />;

  return (
    <div ref={scrollRegion}>
      <Table<DeviceDetail>
        size="small"
        rowKey="IMEI"
        data-testid="device-table"
        columns={columns}
        dataSource={list.data?.List ?? []}
        loading={list.isFetching}
        scroll={{ x: 1120, y: 340 }}
        locale={{ emptyText: t('device.folderEmpty') }}
        rowClassName={(d) => (d.IMEI === selectedImei ? 'wt-row-selected' : '')}
        // each row a tab stop that Enter opens, as a click does (keyboard users, issue 12 item 7)
        onRow={(d) => ({
          onClick: () => onSelect(d.IMEI),
          tabIndex: 0,
          onKeyDown: (e) => e.key === 'Enter' && e.target === e.currentTarget && onSelect(d.IMEI),
          style: { cursor: 'pointer' },
        })}
        pagination={table.pagination(list.data?.Total ?? 0, (total) => t('device.total', { total }))}
        onChange={table.onChange}
      />
    </div>
  );
}
