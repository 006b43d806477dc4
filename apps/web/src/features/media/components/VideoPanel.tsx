import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Table, type TableColumnsType } from 'antd';
import type { VideoFix } from '@wildtrack/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaAll } from '../api';
import { CapNotice, ListState, listPager, type MediaPanelProps, positionText, sizeText } from './states';

/** A device's videos over the range (paged by the server); the chosen one plays in the page. */
export function VideoPanel({ imeis, names, start, end }: MediaPanelProps) {
  const { t } = useTranslation();
  const query = useMediaAll({ kind: 'video', imeis, start, end });
  const [playing, setPlaying] = useState<VideoFix | null>(null);
  const columns: TableColumnsType<VideoFix> = [
    ...(imeis.length > 1 ? [{ key: 'Device', title: t('media.field.device'), render: (_: unknown, f: { IMEI: string }) => names.get(f.IMEI) ?? f.IMEI }] : []),
    { key: 'Time', title: t('media.field.time'), dataIndex: 'PickTime', sorter: (a, b) => a.PickTime.localeCompare(b.PickTime) },
    { key: 'Duration', title: t('media.field.duration'), dataIndex: 'Duration', render: (v: number | null) => (v === null ? '—' : t('media.seconds', { value: v.toFixed(1) })) },
    { key: 'Dimensions', title: t('media.field.dimensions'), render: (_, f) => (f.Width && f.Height ? `${f.Width} × ${f.Height}` : '—') },
    { key: 'Size', title: t('media.field.size'), dataIndex: 'Size', sorter: (a, b) => a.Size - b.Size, render: (v: number) => sizeText(v) },
    { key: 'Position', title: t('media.field.position'), render: (_, f) => positionText(f.Longitude, f.Latitude) ?? '—' },
    {
      key: 'Play',
      title: t('media.actions'),
      render: (_, f) => (
        <Button size="small" icon={<PlayCircleOutlined />} data-testid="media-video-play" onClick={() => setPlaying(f)}>
          {t('media.play')}
        </Button>
      ),
    },
  ];
  const state = <ListState query={query} empty={t('media.noVideos')} />;
  return (
    <div data-testid="media-videos" data-total={query.data?.Total ?? ''}>
      {playing ? (
        <figure className="wt-media-player">
          <video key={playing.Url} src={playing.Url} controls autoPlay muted playsInline data-testid="media-video" aria-label={t('media.videoAt', { time: playing.PickTime })} />
          <figcaption>{playing.PickTime}</figcaption>
        </figure>
      ) : null}
      {query.data && query.data.Total > 0 ? (
        <>
          <CapNotice shown={query.data.List.length} total={query.data.Total} />
          <Table<VideoFix>
            size="small"
            rowKey="Url"
            columns={columns}
            dataSource={query.data.List}
            loading={query.isFetching}
            pagination={listPager(t)}
            scroll={{ x: 'max-content' }}
          />
        </>
      ) : (
        state
      )}
    </div>
  );
}
