import type { Fix } from '@wildtrack/contract';
import { Alert, Drawer, Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useServerTable } from '../../../components/serverTable';
import { useConvertedInvalid } from '../api';
import { coordinate } from './FixTable';

interface Props {
  imei: string;
  name: string;
  open: boolean;
  onClose: () => void;
}

/**
 * The fixes marked invalid on this device, by users (§4: for good) or by Movebank's outlier marks,
 * newest mark first, with who marked each and when, a page at a time.
 */
export function ConvertedInvalidDrawer({ imei, name, open, onClose }: Props) {
  const { t } = useTranslation();
  const table = useServerTable(imei);
  const list = useConvertedInvalid({ imei, ...table.paging }, open);

  const columns: TableProps<Fix>['columns'] = [
    { key: 'PickTime', title: t('track.col.pickTime'), width: 160, className: 'wt-mono', render: (_, f) => f.PickTime },
    { key: 'Position', title: t('track.converted.position'), width: 250, className: 'wt-mono', render: (_, f) => <>{coordinate(f.Longitude, f.LongitudeTag)}, {coordinate(f.Latitude, f.LatitudeTag)}</> },
    { key: 'Operator', title: t('track.converted.operator'), ellipsis: true, render: (_, f) => <span data-testid="converted-operator">{f.ConvertedInvalid?.Operator || '—'}</span> },
    { key: 'OperateTime', title: t('track.converted.time'), width: 160, className: 'wt-mono', render: (_, f) => f.ConvertedInvalid?.OperateTime ?? '' },
  ];

  return (
    <Drawer open={open} onClose={onClose} size={820} title={t('track.converted.title', { name })} data-testid="converted-drawer" destroyOnHidden>
      <Alert className="wt-track-converted-note" type="info" showIcon title={t('track.converted.note')} />
      {list.isError && !list.data ? (
        <ErrorState title={t('track.converted.error')} error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<Fix>
          size="small"
          rowKey="Id"
          data-testid="converted-table"
          columns={columns}
          dataSource={list.data?.List ?? []}
          loading={list.isFetching}
          scroll={{ x: 700 }}
          locale={{ emptyText: t('track.converted.empty') }}
          pagination={table.pagination(list.data?.Total ?? 0, (n) => t('track.total', { count: n }))}
          onChange={table.onChange}
        />
      )}
    </Drawer>
  );
}
