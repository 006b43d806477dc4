import { DeleteOutlined } from '@ant-design/icons';
import type { Notice } from '@wildtrack/contract';
import { App, Badge, Button, Empty, List, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useDeleteNotice, useNoticeList } from '../api';
import { NoticeDialog } from './NoticeDialog';

/** The system notices (§2.4): newest first, unread ones marked; a click opens the detail, delete asks first. */
export function NoticeTab() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const list = useNoticeList();
  const remove = useDeleteNotice();
  const [open, setOpen] = useState<Notice | null>(null);

  if (list.isPending) return <Skeleton active data-testid="notice-loading" />;
  if (list.isError && !list.data) return <ErrorState title={t('notice.loadError')} error={list.error} onRetry={() => void list.refetch()} />;

  const confirmDelete = (n: Notice) =>
    modal.confirm({
      title: t('notice.deleteTitle'),
      content: t('notice.deleteContent', { title: n.Title }),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(n.IdStr),
    });

  return (
    <>
      <List<Notice>
        data-testid="notice-list"
        dataSource={list.data}
        loading={list.isFetching && !list.isPending}
        locale={{ emptyText: <Empty description={t('notice.empty')} /> }}
        renderItem={(n) => (
          <List.Item
            key={n.IdStr}
            data-testid="notice-item"
            data-unread={n.Viewed === 0 ? 'true' : 'false'}
            className={n.Viewed === 0 ? 'wt-notice-unread' : undefined}
            actions={[
              <Button key="delete" type="text" danger icon={<DeleteOutlined />} aria-label={t('notice.deleteOne', { title: n.Title })} onClick={() => confirmDelete(n)} />,
            ]}
          >
            <List.Item.Meta
              title={
                <Button type="link" data-testid="notice-open" style={{ padding: 0, height: 'auto', fontWeight: n.Viewed === 0 ? 600 : 400 }} onClick={() => setOpen(n)}>
                  {n.Viewed === 0 ? <Badge status="error" text={null} style={{ marginRight: 6 }} aria-label={t('notice.unread')} /> : null}
                  {n.Title}
                </Button>
              }
              description={
                <>
                  <Typography.Text type="secondary">{n.SendTime}</Typography.Text>
                  {n.Viewed === 0 ? <Typography.Text type="danger"> · {t('notice.unread')}</Typography.Text> : null}
                  <Typography.Paragraph type="secondary" ellipsis={{ rows: 1 }} style={{ margin: 0 }}>
                    {n.Body}
                  </Typography.Paragraph>
                </>
              }
            />
          </List.Item>
        )}
      />
      <NoticeDialog notice={open} onClose={() => setOpen(null)} />
    </>
  );
}
