import { DownloadOutlined, PlayCircleOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Space, Table, Tag, type TableColumnsType } from 'antd';
import { type AudioFix, BATCH_WAV_MAX } from '@wildtrack/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBatchWav, useConvertToWav, useMediaAll } from '../api';
import { CapNotice, ListState, listPager, type MediaPanelProps, sizeText } from './states';
import { Waveform } from './Waveform';

/**
 * A device's recordings over the range (paged by the server). A WAV plays at once; a PDM recording is
 * converted on the server first (Convert), then plays. The chosen recordings download as a zip of WAVs.
 */
export function AudioPanel({ imeis, names, start, end }: MediaPanelProps) {
  const { t } = useTranslation();
  const query = useMediaAll({ kind: 'audio', imeis, start, end });
  const convert = useConvertToWav();
  const batch = useBatchWav();
  const [playing, setPlaying] = useState<{ url: string; time: string } | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);

  const play = async (f: AudioFix): Promise<void> => {
    if (f.OssFile) {
      setPlaying({ url: f.OssFile, time: f.PickTime });
      return;
    }
    const wav = await convert.mutateAsync({ imei: f.IMEI, pickTime: f.PickTime });
    setPlaying({ url: wav.Url, time: f.PickTime });
  };

  const columns: TableColumnsType<AudioFix> = [
    ...(imeis.length > 1 ? [{ key: 'Device', title: t('media.field.device'), render: (_: unknown, f: { IMEI: string }) => names.get(f.IMEI) ?? f.IMEI }] : []),
    { key: 'Time', title: t('media.field.time'), dataIndex: 'PickTime', sorter: (a, b) => a.PickTime.localeCompare(b.PickTime) },
    { key: 'Duration', title: t('media.field.duration'), dataIndex: 'Duration', render: (v: number | null) => (v === null ? '—' : t('media.seconds', { value: v.toFixed(1) })) },
    {
      key: 'Format',
      title: t('media.field.format'),
      render: (_, f) => (
        <Space size={4}>
          <Tag>{f.Pdm ? 'PDM' : 'WAV'}</Tag>
          {f.Rate !== null ? t('media.rate', { value: f.Rate.toLocaleString() }) : null}
          {f.BitDepth !== null ? t('media.bitDepth', { value: f.BitDepth }) : null}
          {f.Track !== null ? t('media.tracks', { count: f.Track }) : null}
        </Space>
      ),
    },
    { key: 'Size', title: t('media.field.size'), dataIndex: 'Size', sorter: (a, b) => a.Size - b.Size, render: (v: number) => sizeText(v) },
    {
      key: 'Play',
      title: t('media.actions'),
      render: (_, f) =>
        f.Pdm && !f.OssFile ? (
          <Button
            size="small"
            icon={<SwapOutlined />}
            data-testid="media-audio-convert"
            loading={convert.isPending && convert.variables?.pickTime === f.PickTime && convert.variables.imei === f.IMEI}
            onClick={() => void play(f).catch(() => undefined)}
          >
            {t('media.convert')}
          </Button>
        ) : (
          <Button size="small" icon={<PlayCircleOutlined />} data-testid="media-audio-play" onClick={() => void play(f)}>
            {t('media.play')}
          </Button>
        ),
    },
  ];
  const rows = query.data?.List ?? [];
  const state = <ListState query={query} empty={t('media.noAudio')} />;
  return (
    <div data-testid="media-audio" data-total={query.data?.Total ?? ''}>
      {playing ? (
        <figure className="wt-media-player" data-testid="media-audio-player" data-url={playing.url}>
          <audio key={playing.url} src={playing.url} controls autoPlay data-testid="media-audio-element" aria-label={t('media.audioAt', { time: playing.time })} />
          <figcaption>{playing.time}</figcaption>
          <Waveform url={playing.url} />
        </figure>
      ) : null}
      {query.data && query.data.Total > 0 ? (
        <>
          <CapNotice shown={rows.length} total={query.data.Total} />
          <Space className="wt-media-batch">
            <Button
              icon={<DownloadOutlined />}
              disabled={chosen.length === 0}
              loading={batch.isPending}
              data-testid="media-audio-batch"
              onClick={() => batch.mutate(rows.filter((f) => chosen.includes(f.Url)).map((f) => ({ imei: f.IMEI, pickTime: f.PickTime })))}
            >
              {t('media.downloadWav', { count: chosen.length })}
            </Button>
          </Space>
          <Table<AudioFix>
            size="small"
            rowKey="Url"
            columns={columns}
            dataSource={rows}
            loading={query.isFetching}
            rowSelection={{
              selectedRowKeys: chosen,
              preserveSelectedRowKeys: true,
              onChange: (keys) => setChosen((keys as string[]).slice(0, BATCH_WAV_MAX)),
              getTitleCheckboxProps: () => ({ 'aria-label': t('media.chooseAll') }),
              getCheckboxProps: (f) => ({ 'aria-label': t('media.choose', { time: f.PickTime }) }),
            }}
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
