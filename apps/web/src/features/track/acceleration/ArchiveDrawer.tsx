import { DownloadOutlined } from '@ant-design/icons';
import { type ArchiveRecord, DEFAULT_PAGE_SIZE } from '@wildtrack/contract';
import { Button, Drawer, Empty, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { tablePager } from '../../../components/serverTable';
import { useArchives, useDownloadArchive } from './api';

/** Bytes as KB/MB. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The device's daily ACC archive files of the last 3 closed days (§9 Archive), each downloadable. */
export function ArchiveDrawer({ imei, open, onClose }: { imei: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ currentPage: 1, pageSize: DEFAULT_PAGE_SIZE });
  const list = useArchives(imei, paging.currentPage, paging.pageSize, open);
  const save = useDownloadArchive();
  const rows = list.data?.List ?? [];
  return (
    <Drawer title={t('acceleration.archive.title')} open={open} onClose={onClose} size="large" destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('acceleration.archive.help')}</Typography.Paragraph>
      {list.isError ? (
        <ErrorState title={t('acceleration.archive.loadError')} error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<ArchiveRecord>
          size="small"
          rowKey="Id"
          data-testid="archive-list"
          loading={list.isFetching}
          dataSource={rows}
          pagination={tablePager(paging, list.data?.Total ?? 0, (n) => t('acceleration.archive.total', { count: n }))}
          onChange={(p) => setPaging({ currentPage: p.current ?? 1, pageSize: p.pageSize ?? paging.pageSize })}
          locale={{ emptyText: list.isPending ? t('common.loading') : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('acceleration.archive.empty')} /> }}
          columns={[
            { key: 'date', dataIndex: 'ArchiveDate', title: t('acceleration.archive.date'), className: 'wt-mono' },
            { key: 'records', dataIndex: 'RecordCount', title: t('acceleration.archive.records') },
            { key: 'size', dataIndex: 'FileSize', title: t('acceleration.archive.size'), render: (v: number) => sizeText(v) },
            { key: 'created', dataIndex: 'CreateTime', title: t('acceleration.archive.created'), className: 'wt-mono' },
            {
              key: 'download',
              title: '',
              render: (_: unknown, r: ArchiveRecord) => (
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  aria-label={t('acceleration.archive.download', { date: r.ArchiveDate })}
                  loading={save.isPending && save.variables.archiveDate === r.ArchiveDate}
                  onClick={() => save.mutate({ imei, archiveDate: r.ArchiveDate })}
                />
              ),
            },
          ]}
        />
      )}
    </Drawer>
  );
}
