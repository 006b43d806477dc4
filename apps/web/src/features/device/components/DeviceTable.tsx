import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, type DeviceDetail } from '@wildtrack/contract';
import { Table, Tag, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { SensorIcons } from '../../../components/SensorIcons';
import { useDeviceList, type ListParams, type SortField } from '../api';
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
  const [paging, setPaging] = useState<Omit<ListParams, 'folderId'> & { for: string }>({
    for: folderId,
    currentPage: 1,
    pageSize: DEFAULT_PAGE_SIZE,
  });
  // Another folder starts again at its first page (page size and sort are kept).
  if (paging.for !== folderId) setPaging({ ...paging, for: folderId, currentPage: 1 });
  const { for: _for, ...rest } = paging;
  const list = useDeviceList({ folderId, ...rest });

  const sortOrderOf = (field: SortField) => (paging.sortField === field ? (paging.sortOrder ?? null) : null);

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
    { key: 'Status', title: t('device.col.status'), sorter: true, sortOrder: sortOrderOf('Status'), width: 120, render: (_, d) => <StatusTag status={d.Status} /> },
    {
      key: 'Voltage',
      title: t('device.col.battery'),
      sorter: true,
      sortOrder: sortOrderOf('Voltage'),
      width: 120,
      render: (_, d) => <Battery voltage={d.Voltage} level={d.BatteryLevel} />,
    },
    {
      key: 'LastWorkTime',
      title: t('device.col.lastWork'),
      sorter: true,
      sortOrder: sortOrderOf('LastWorkTime'),
      width: 170,
      render: (_, d) => d.LastWorkTime || <span className="wt-muted">—</span>,
    },
    { key: 'Sensor', title: t('device.col.sensors'), width: 150, render: (_, d) => <SensorIcons mask={d.Sensor} /> },
  ];

  if (list.isError && !list.data) return <ErrorState title={t('device.listError')} error={list.error} onRetry={() => void list.refetch()} />;

  return (
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
      onRow={(d) => ({ onClick: () => onSelect(d.IMEI), style: { cursor: 'pointer' } })}
      pagination={{
        current: paging.currentPage,
        pageSize: paging.pageSize,
        total: list.data?.Total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
        showQuickJumper: true,
        showTotal: (total) => t('device.total', { total }),
        size: 'small',
      }}
      onChange={(pagination, _filters, sorter) => {
        const s = Array.isArray(sorter) ? sorter[0] : sorter;
        const field = s?.order ? (s.columnKey as SortField) : undefined;
        setPaging({
          for: folderId,
          currentPage: pagination.pageSize !== paging.pageSize ? 1 : (pagination.current ?? 1),
          pageSize: pagination.pageSize ?? DEFAULT_PAGE_SIZE,
          sortField: field,
          sortOrder: field ? (s?.order ?? undefined) : undefined,
        });
      }}
    />
  );
}
