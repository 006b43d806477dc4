import { Alert, App, Button, Modal, Space, Table, Tag, Typography } from 'antd';
import { DEFAULT_PAGE_SIZE, type ShareRecord, windowOrdered } from '@wildtrack/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useZone } from '../../../lib/session';
import { useRevokeShare, useShareList, useUpdateShare } from '../api';
import { dataPeriodWords, dataTermsComplete, SHARE_RIGHTS, ShareTermsFields, termsBody, termsOf, type ShareRight, type Terms } from './ShareTerms';

const STATE_COLOR = { PENDING: 'blue', ACTIVE: 'green', EXPIRED: 'default' } as const;

const rightsOf = (s: ShareRecord): ShareRight[] =>
  SHARE_RIGHTS.filter((r) => (r === 'EditDevice' ? s.CanEditDevice : r === 'RemoteInstr' ? s.CanRemoteInstr : s.CanDownloadData));

/**
 * Share management (§2.1): the shares the user gave ('given': with whom, which device, until when; the
 * window, rights and data period changed, or revoked after confirmation) or got ('received': from whom,
 * read-only); both say in words what of the data each share grants.
 * The organisation's primary user's given list holds every share its accounts gave, with who gave each.
 */
export function ShareList({ side }: { side: 'given' | 'received' }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const zone = useZone();
  const [page, setPage] = useState({ currentPage: 1, pageSize: DEFAULT_PAGE_SIZE });
  const list = useShareList(side, page, zone);
  const revoke = useRevokeShare();
  const [editing, setEditing] = useState<{ share: ShareRecord; terms: Terms } | null>(null);
  const update = useUpdateShare();

  const confirmRevoke = (s: ShareRecord) =>
    modal.confirm({
      title: t('share.revokeTitle'),
      content: t('share.revokeText', { device: s.Caption, name: s.NickName }),
      okText: t('share.revoke'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'share-revoke-ok' } as object) },
      cancelText: t('common.cancel'),
      onOk: async () => {
        await revoke.mutateAsync({ shareIds: [s.IdStr] });
        void message.success(t('share.revoked'));
      },
    });

  const saveEdit = async () => {
    if (!editing?.terms.window) return;
    await update.mutateAsync({ shareId: editing.share.IdStr, ...termsBody({ ...editing.terms, window: editing.terms.window }, zone) });
    void message.success(t('common.saved'));
    setEditing(null);
  };

  if (list.isError) {
    return <Alert type="error" showIcon message={t('share.loadFailed')} action={<Button size="small" onClick={() => void list.refetch()}>{t('common.retry')}</Button>} />;
  }
  return (
    <>
      {side === 'given' && list.data?.Organisation ? (
        <Typography.Paragraph type="secondary" data-testid="share-organisation-note">
          {t('share.organisationNote')}
        </Typography.Paragraph>
      ) : null}
      <Table<ShareRecord>
        data-testid={`share-list-${side}`}
        rowKey="IdStr"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.List ?? []}
        locale={{ emptyText: t(side === 'given' ? 'share.emptyGiven' : 'share.emptyReceived') }}
        scroll={{ x: 'max-content' }}
        onRow={(s) => ({ 'data-imei': s.IMEI, 'data-state': s.State }) as object}
        pagination={{
          current: page.currentPage,
          pageSize: page.pageSize,
          total: list.data?.Total ?? 0,
          showSizeChanger: true,
          onChange: (currentPage, pageSize) => setPage({ currentPage, pageSize }),
        }}
        columns={[
          {
            key: 'device',
            title: t('share.col.device'),
            render: (_, s) => (
              <span>
                {s.Caption} <Typography.Text type="secondary">{s.IMEI}</Typography.Text>
              </span>
            ),
          },
          { key: 'user', title: t(side === 'given' ? 'share.col.recipient' : 'share.col.sharer'), dataIndex: 'NickName' },
          // the primary user's given list holds every share of the organisation's accounts: whose each is
          ...(side === 'given' && list.data?.Organisation ? [{ key: 'sharer', title: t('share.col.sharer'), dataIndex: 'SharerName' as const }] : []),
          { key: 'from', title: t('share.effectiveTime'), dataIndex: 'EffectiveTime' },
          { key: 'until', title: t('share.failureTime'), render: (_, s) => <span data-testid="share-until">{s.FailureTime}</span> },
          {
            key: 'data',
            title: t('share.data.label'),
            render: (_, s) => <span data-testid="share-data-granted">{dataPeriodWords(t, s.DataPeriod, s.DataFrom || null)}</span>,
          },
          {
            key: 'rights',
            title: t('share.rights'),
            render: (_, s) => {
              const rights = rightsOf(s);
              return rights.length === 0 ? <Typography.Text type="secondary">{t('share.viewOnly')}</Typography.Text> : rights.map((r) => <Tag key={r}>{t(`share.right.${r}`)}</Tag>);
            },
          },
          { key: 'state', title: t('share.col.state'), render: (_, s) => <Tag color={STATE_COLOR[s.State]}>{t(`share.state.${s.State}`)}</Tag> },
          ...(side === 'given'
            ? [
                {
                  key: 'actions',
                  title: t('share.col.actions'),
                  render: (_: unknown, s: ShareRecord) => (
                    <Space>
                      <Button size="small" data-testid="share-edit" onClick={() => setEditing({ share: s, terms: termsOf(s, rightsOf(s)) })}>
                        {t('share.edit')}
                      </Button>
                      <Button size="small" danger data-testid="share-revoke" onClick={() => confirmRevoke(s)}>
                        {t('share.revoke')}
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing ? t('share.editTitle', { device: editing.share.Caption, name: editing.share.NickName }) : ''}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: !editing?.terms.window || !windowOrdered(...editing.terms.window) || !dataTermsComplete(editing.terms.data), loading: update.isPending }}
        onOk={() => void saveEdit().catch(() => undefined)}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        {editing && <ShareTermsFields zone={zone} value={editing.terms} onChange={(terms) => setEditing({ ...editing, terms })} />}
      </Modal>
    </>
  );
}
