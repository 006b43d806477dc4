import { DeleteOutlined, DownloadOutlined, StopOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, type DownloadTask } from '@wildtrack/contract';
import { App, Button, Card, Empty, Progress, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKindTexts } from '../../../i18n/sensor-kinds';
import { ErrorState } from '../../../components/ErrorState';
import { tablePager } from '../../../components/serverTable';
import { useCancelTask, useDeleteTask, useSaveTask, useTasks } from '../api';
import { isCancellable, remaining, STATUS_COLOR } from '../model';

/** The caller's download tasks (§2.1, §4), server-paged: state, progress while running, time left, and the actions. */
export function TaskList() {
  const { t } = useTranslation();
  const texts = useKindTexts();
  const { modal } = App.useApp();
  const [paging, setPaging] = useState({ currentPage: 1, pageSize: DEFAULT_PAGE_SIZE });
  const list = useTasks(paging.currentPage, paging.pageSize);
  const cancel = useCancelTask();
  const remove = useDeleteTask();
  const save = useSaveTask();

  const confirmCancel = (task: DownloadTask) =>
    modal.confirm({
      title: t('download.list.cancelTitle'),
      content: t('download.list.cancelConfirm', { title: task.Title }),
      okText: t('download.list.cancel'),
      cancelText: t('common.cancel'),
      onOk: () => cancel.mutateAsync(task.IdStr),
    });
  const confirmDelete = (task: DownloadTask) =>
    modal.confirm({
      title: t('download.list.deleteTitle'),
      content: t('download.list.deleteConfirm', { title: task.Title }),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(task.IdStr),
    });

  if (list.isError && !list.data) {
    return (
      <Card title={t('download.list.title')} size="small">
        <ErrorState title={t('download.list.loadError')} error={list.error} onRetry={() => void list.refetch()} />
      </Card>
    );
  }
  return (
    <Card title={t('download.list.title')} size="small">
      <Table<DownloadTask>
        size="small"
        rowKey="IdStr"
        data-testid="download-tasks"
        loading={list.isPending}
        dataSource={list.data?.List ?? []}
        scroll={{ x: 955 }}
        pagination={tablePager(paging, list.data?.Total ?? 0, (n) => t('download.list.total', { count: n }))}
        onChange={(p) => setPaging({ currentPage: p.pageSize !== paging.pageSize ? 1 : (p.current ?? 1), pageSize: p.pageSize ?? paging.pageSize })}
        onRow={(r) => ({ 'data-task': r.IdStr, 'data-status': r.Status }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: list.isPending ? t('common.loading') : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('download.list.empty')} /> }}
        columns={[
          { key: 'title', dataIndex: 'Title', title: t('download.list.name'), width: 120 },
          {
            key: 'what',
            title: t('download.list.what'),
            width: 180,
            render: (_: unknown, r) => (
              <Tooltip title={r.IMEIs.join(', ')}>
                {t('download.list.devices', { count: r.IMEIs.length })} · {r.Kinds.map((k) => texts.kind(k, 'download.kind')).join(', ')} · {t(`download.type.${r.FileType}`)}
              </Tooltip>
            ),
          },
          {
            key: 'range',
            title: t('download.list.range'),
            width: 165,
            render: (_: unknown, r) => (
              <div className="wt-download-range">
                <div>{r.StartTime}</div>
                <div>~ {r.EndTime}</div>
                <Typography.Text type="secondary">{r.TimeZone}</Typography.Text>
              </div>
            ),
          },
          {
            key: 'status',
            title: t('download.list.status'),
            width: 130,
            render: (_: unknown, r) => (
              <Space direction="vertical" size={2} style={{ width: '100%' }}>
                <Tag color={STATUS_COLOR[r.Status]} data-testid="task-status">
                  {t(`download.status.${r.Status}`)}
                </Tag>
                {r.Status === 'WAITING' && r.QueuePosition > 0 ? (
                  <Typography.Text type="secondary" data-testid="task-queue-position" data-position={r.QueuePosition}>
                    {t('download.list.queuePosition', { position: r.QueuePosition })}
                  </Typography.Text>
                ) : null}
                {r.Status === 'DOWNLOADING' ? <Progress percent={r.Percent} size="small" data-testid="task-progress" /> : null}
                {r.Status === 'DOWNLOADING' && r.RowsTotal > 0 ? (
                  <Typography.Text type="secondary" data-testid="task-rows">
                    {t('download.list.rowsOf', { rows: r.Rows.toLocaleString(), total: r.RowsTotal.toLocaleString() })}
                  </Typography.Text>
                ) : r.Status === 'DOWNLOADING' || r.Status === 'SUCCESSFUL' ? (
                  <Typography.Text type="secondary">{t('download.list.rows', { count: r.Rows })}</Typography.Text>
                ) : null}
                {r.Status === 'DOWNLOADING' && r.EtaMs >= 0 ? (
                  <Typography.Text type="secondary" data-testid="task-eta">
                    {t('download.list.eta', { minutes: Math.max(1, Math.ceil(r.EtaMs / 60_000)) })}
                  </Typography.Text>
                ) : null}
                {r.Error ? <Typography.Text type="danger">{r.Error}</Typography.Text> : null}
              </Space>
            ),
          },
          { key: 'created', dataIndex: 'CreateTime', title: t('download.list.created'), width: 140, render: (v: string) => <span className="wt-download-range">{v}</span> },
          {
            key: 'left',
            title: t('download.list.left'),
            width: 90,
            render: (_: unknown, r) => (r.Status === 'SUCCESSFUL' ? <span data-testid="task-left">{t('download.list.daysHours', remaining(r.RemainingMs))}</span> : '—'),
          },
          {
            key: 'actions',
            title: '',
            width: 130,
            fixed: 'right',
            render: (_: unknown, r) => (
              <Space>
                {r.Status === 'SUCCESSFUL' ? (
                  <Button size="small" type="primary" icon={<DownloadOutlined />} loading={save.isPending && save.variables === r.IdStr} onClick={() => save.mutate(r.IdStr)} data-testid="task-download">
                    {t('download.list.download')}
                  </Button>
                ) : null}
                {isCancellable(r.Status) ? (
                  <Button size="small" icon={<StopOutlined />} onClick={() => confirmCancel(r)} data-testid="task-cancel">
                    {t('download.list.cancel')}
                  </Button>
                ) : null}
                <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} onClick={() => confirmDelete(r)} data-testid="task-delete" />
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
