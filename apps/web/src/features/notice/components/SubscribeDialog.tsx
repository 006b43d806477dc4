import type { EventSubscribe } from '@wildtrack/contract';
import { Modal, Switch, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useSubscribe, useSubscriptions } from '../api';

type Flag = 'FenceEvent' | 'InstrEvent' | 'FixUpdateEvent';
const FLAGS: Flag[] = ['FenceEvent', 'InstrEvent', 'FixUpdateEvent'];

/** Which events of each device are delivered to the user (§3 EventSubscribe); each switch is saved at once. */
export function SubscribeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const subs = useSubscriptions();
  const subscribe = useSubscribe();
  const set = (row: EventSubscribe, flag: Flag, on: boolean) =>
    subscribe.mutate({ imei: row.IMEI, FenceEvent: row.FenceEvent, InstrEvent: row.InstrEvent, FixUpdateEvent: row.FixUpdateEvent, [flag]: on });
  const columns: TableColumnsType<EventSubscribe> = [
    { title: t('notice.device'), key: 'device', render: (_, r) => `${r.Caption} (${r.IMEI})` },
    ...FLAGS.map((flag) => ({
      title: t(`notice.subscribe.${flag}`),
      key: flag,
      width: 130,
      render: (_: unknown, r: EventSubscribe) => (
        <Switch
          size="small"
          checked={r[flag]}
          aria-label={`${t(`notice.subscribe.${flag}`)} · ${r.Caption}`}
          data-testid={`subscribe-${flag}-${r.IMEI}`}
          loading={subscribe.isPending && subscribe.variables?.imei === r.IMEI}
          onChange={(on) => set(r, flag, on)}
        />
      ),
    })),
  ];
  return (
    <Modal open={open} title={t('notice.subscribe.title')} onCancel={onClose} footer={null} destroyOnHidden width={760}>
      {subs.isError && !subs.data ? (
        <ErrorState title={t('notice.subscribe.loadError')} error={subs.error} onRetry={() => void subs.refetch()} />
      ) : (
        <Table<EventSubscribe>
          rowKey="IMEI"
          size="small"
          data-testid="subscribe-table"
          columns={columns}
          dataSource={subs.data ?? []}
          loading={subs.isPending}
          pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }}
          locale={{ emptyText: t('notice.noDevices') }}
        />
      )}
    </Modal>
  );
}
