import { DownloadOutlined } from '@ant-design/icons';
import { type ArchiveRecord, DEFAULT_PAGE_SIZE, SensorFlag } from '@wildtrack/contract';
import { Button, Card, Empty, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { tablePager } from '../../../components/serverTable';
import type { DeviceEntry } from '../../../widgets/device-tree';
import { useArchives, useSaveArchive } from '../api';

const ACC = SensorFlag.Acceleration | SensorFlag.OldAcceleration;

/** The daily ACC archive files (§9 Archive: the last 3 closed days) of a checked acceleration device, each downloadable. */
export function ArchiveCard({ chosen }: { chosen: DeviceEntry[] }) {
  const { t } = useTranslation();
  const devices = chosen.filter((c) => (c.device.Sensor & ACC) !== 0);
  const [picked, setPicked] = useState<string>();
  const imei = devices.some((d) => d.device.IMEI === picked) ? picked : devices[0]?.device.IMEI;
  const [paging, setPaging] = useState({ currentPage: 1, pageSize: DEFAULT_PAGE_SIZE });
  const list = useArchives(imei, paging.currentPage, paging.pageSize);
  const save = useSaveArchive();
  return (
    <Card title={t('download.archive.title')} size="small" data-testid="download-archives">
      <Typography.Paragraph type="secondary">{t('download.archive.help')}</Typography.Paragraph>
      {devices.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('download.archive.noDevice')} />
      ) : (
        <>
          <Select
            style={{ minWidth: 240, marginBottom: 12 }}
            value={imei}
            onChange={(v: string) => {
              setPicked(v);
              setPaging((p) => ({ ...p, currentPage: 1 }));
            }}
            options={devices.map((d) => ({ value: d.device.IMEI, label: `${d.device.RemarkName || d.device.Caption} (${d.device.IMEI})` }))}
            aria-label={t('download.archive.device')}
          />
          {list.isError ? (
            <ErrorState title={t('download.archive.loadError')} error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <Table<ArchiveRecord>
              size="small"
              rowKey="Id"
              loading={list.isFetching}
              dataSource={list.data?.List ?? []}
              pagination={tablePager(paging, list.data?.Total ?? 0, (n) => t('download.archive.total', { count: n }))}
              onChange={(p) => setPaging({ currentPage: p.current ?? 1, pageSize: p.pageSize ?? paging.pageSize })}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('download.archive.empty')} /> }}
              columns={[
                { key: 'date', dataIndex: 'ArchiveDate', title: t('download.archive.date'), render: (v: string) => <span className="wt-download-range">{v}</span> },
                { key: 'records', dataIndex: 'RecordCount', title: t('download.archive.records') },
                { key: 'size', dataIndex: 'FileSize', title: t('download.archive.size'), render: (v: number) => `${(v / 1024).toFixed(1)} KB` },
                {
                  key: 'download',
                  title: '',
                  render: (_: unknown, r) => (
                    <Button size="small" icon={<DownloadOutlined />} loading={save.isPending && save.variables.archiveDate === r.ArchiveDate} onClick={() => save.mutate({ imei: imei!, archiveDate: r.ArchiveDate })}>
                      {t('download.archive.download')}
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </>
      )}
    </Card>
  );
}
