import { DeleteOutlined, LinkOutlined } from '@ant-design/icons';
import { isWebLink, type Notice } from '@wildtrack/contract';
import { App, Button, Modal, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useDeleteNotice, useMarkNoticeRead, useNotice } from '../api';

/**
 * A notice's detail (§2.4, §4 Notice): its title and body as TEXT (React puts it in a text node: HTML in a
 * body shows as written, nothing is interpreted), line breaks kept; an "open URL" link after the body only
 * when the website is an http(s) URL. Opening it marks the notice read; delete asks first.
 */
export function NoticeDialog({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const id = notice ? notice.IdStr : null;
  const detail = useNotice(id);
  const markRead = useMarkNoticeRead();
  const remove = useDeleteNotice();
  const shown = detail.data ?? notice;

  useEffect(() => {
    if (notice && notice.Viewed === 0) markRead.mutate(notice.IdStr);
    // once per opened notice
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [notice?.IdStr]);

  const confirmDelete = () => {
    if (!notice) return;
    modal.confirm({
      title: t('notice.deleteTitle'),
      content: t('notice.deleteContent', { title: notice.Title }),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        await remove.mutateAsync(notice.IdStr);
        onClose();
      },
    });
  };

  return (
    <Modal
      open={notice !== null}
      title={shown ? <span data-testid="notice-detail-title">{shown.Title}</span> : null}
      onCancel={onClose}
      destroyOnHidden
      width={640}
      footer={[
        <Button key="delete" danger icon={<DeleteOutlined />} onClick={confirmDelete} data-testid="notice-detail-delete">
          {t('common.delete')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>,
      ]}
    >
      {detail.isError && !detail.data ? (
        <ErrorState title={t('notice.loadOneError')} error={detail.error} onRetry={() => void detail.refetch()} />
      ) : !shown ? (
        <Spin />
      ) : (
        <div data-testid="notice-detail">
          <Typography.Text type="secondary">{shown.SendTime}</Typography.Text>
          <Typography.Paragraph data-testid="notice-body" style={{ whiteSpace: 'pre-wrap', marginTop: 12, overflowWrap: 'anywhere' }}>
            {shown.Body}
          </Typography.Paragraph>
          {isWebLink(shown.Website) ? (
            <a href={shown.Website.trim()} target="_blank" rel="noopener noreferrer" data-testid="notice-open-url">
              <LinkOutlined /> {t('notice.openUrl')}
            </a>
          ) : null}
        </div>
      )}
    </Modal>
  );
}
