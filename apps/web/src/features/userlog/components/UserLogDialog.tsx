import { DEFAULT_PAGE_SIZE, formatTime, PAGE_SIZE_OPTIONS, type UserLogRow } from '@wildtrack/contract';
import { DatePicker, Modal, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useZone } from '../../../lib/session';
import { useUserLog } from '../api/useUserLog';

const DAY = 86_400_000;

/**
 * The organisation's user log for its primary user (§7.2 UserLog): page visits and key actions, newest
 * first, filtered by member and time range (the last 7 days at first), in the user's time zone.
 */
export function UserLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('userLog.title')} onCancel={onClose} footer={null} destroyOnHidden width={820}>
      <UserLogBody />
    </Modal>
  );
}

function UserLogBody() {
  const { t } = useTranslation();
  const zone = useZone();
  const [memberId, setMemberId] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const now = Date.now();
    return [dayjs(formatTime(now - 7 * DAY, zone)), dayjs(formatTime(now + 60_000, zone))];
  });
  const [page, setPage] = useState({ currentPage: 1, pageSize: DEFAULT_PAGE_SIZE });
  const query = useMemo(
    () => ({
      ...(memberId ? { memberId } : {}),
      startTime: range[0].format('YYYY-MM-DD HH:mm:ss'),
      endTime: range[1].format('YYYY-MM-DD HH:mm:ss'),
      timeZone: zone,
      ...page,
    }),
    [memberId, range, zone, page],
  );
  const log = useUserLog(query, true);
  const members = log.data?.Members ?? [];
  const nameOf = (id: string): string => {
    const m = members.find((x) => x.UserIdStr === id);
    return m ? (m.NickName && m.NickName !== m.UserName ? `${m.NickName} (${m.UserName})` : m.UserName) : id;
  };
  /** An action's name in the language; one on a member ('member.disable:12') names the member too. */
  const actionText = (target: string): string => {
    const [name = target, memberId] = target.split(':');
    const text = t(`userLog.actions.${name}`, { defaultValue: '' });
    return text && memberId ? `${text}: ${nameOf(memberId)}` : text;
  };

  const columns: TableColumnsType<UserLogRow> = [
    { title: t('userLog.time'), dataIndex: 'Time', width: 170 },
    { title: t('userLog.member'), key: 'member', render: (_, r) => (r.NickName && r.NickName !== r.UserName ? `${r.NickName} (${r.UserName})` : r.UserName) },
    {
      title: t('userLog.type'),
      dataIndex: 'Type',
      width: 110,
      render: (type: UserLogRow['Type']) => <Tag color={type === 'visit' ? 'blue' : 'gold'}>{t(`userLog.types.${type}`)}</Tag>,
    },
    { title: t('userLog.target'), dataIndex: 'Target', render: (target: string, r) => (r.Type === 'action' && actionText(target)) || target },
  ];

  if (log.isError && !log.data) return <ErrorState title={t('userLog.loadError')} error={log.error} onRetry={() => void log.refetch()} />;
  return (
    <div data-testid="user-log">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('userLog.member')}
          data-testid="user-log-member"
          style={{ minWidth: 200 }}
          value={memberId}
          onChange={(v) => {
            setMemberId(v);
            setPage((p) => ({ ...p, currentPage: 1 }));
          }}
          options={[{ value: '', label: t('userLog.allMembers') }, ...members.map((m) => ({ value: m.UserIdStr, label: m.NickName && m.NickName !== m.UserName ? `${m.NickName} (${m.UserName})` : m.UserName }))]}
        />
        <DatePicker.RangePicker
          showTime
          allowClear={false}
          value={range}
          aria-label={t('userLog.range')}
          onChange={(v) => {
            if (v?.[0] && v[1]) {
              setRange([v[0], v[1]]);
              setPage((p) => ({ ...p, currentPage: 1 }));
            }
          }}
        />
      </Space>
      <Table<UserLogRow>
        rowKey="Id"
        size="small"
        columns={columns}
        dataSource={log.data?.List ?? []}
        loading={log.isFetching}
        pagination={{
          current: page.currentPage,
          pageSize: page.pageSize,
          total: log.data?.Total ?? 0,
          pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
          showSizeChanger: true,
          showTotal: (total) => t('userLog.total', { total }),
          onChange: (currentPage, pageSize) => setPage({ currentPage, pageSize: pageSize as typeof page.pageSize }),
        }}
      />
    </div>
  );
}
