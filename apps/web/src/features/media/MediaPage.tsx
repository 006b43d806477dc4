import { AudioOutlined, PictureOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Card, Empty, Segmented, Skeleton } from 'antd';
import { MEDIA_FLAGS, MEDIA_KINDS, type MediaKindCall, SensorFlag } from '@wildtrack/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DevicePicker } from '../../widgets/device-tree';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { ContextInUrl } from '../../lib/contextUrl';
import { resolveRange, usePositionSelection } from '../../lib/positionSelection';
import { useZone } from '../../lib/session';
import { useDeviceTree } from '../../widgets/device-tree';
import { AudioPanel } from './components/AudioPanel';
import { ImageGrid } from './components/ImageGrid';
import { VideoPanel } from './components/VideoPanel';
import './media.css';

const ICONS = { image: <PictureOutlined />, video: <VideoCameraOutlined />, audio: <AudioOutlined /> };

/** Whether a device's sensor flags offer a media kind (§3 Sensor support flags). */
export function offers(sensor: number, kind: MediaKindCall): boolean {
  return (sensor & SensorFlag[MEDIA_FLAGS[kind]]) !== 0;
}

/**
 * /media (§2.1 "Images, video and audio"): what the chosen devices took over the range — the devices and
 * range the map screens work from (the tree's devices in the picker; §2.3 hides the tree panel here),
 * carried in the URL. Images as a grid of server-made thumbnails with a viewer, videos played in the
 * page, recordings played (PDM ones converted to WAV first) and downloaded as zips of WAVs. Only the
 * kinds some chosen device offers are offered.
 */
export function MediaPage() {
  const { t } = useTranslation();
  const zone = useZone();
  const tree = useDeviceTree();
  const selection = usePositionSelection();
  const [chosenKind, setKind] = useState<MediaKindCall>('image');
  const { start, end } = resolveRange(selection.range, zone);

  const devices = selection.imeis.flatMap((imei) => {
    const key = tree.data?.keysByImei.get(imei)?.[0];
    const device = key ? tree.data?.deviceByKey.get(key)?.device : undefined;
    return device ? [device] : [];
  });
  const names = new Map(devices.map((d) => [d.IMEI, d.RemarkName || d.Caption || d.IMEI]));
  const kinds = MEDIA_KINDS.filter((k) => devices.some((d) => offers(d.Sensor, k)));
  const kind = kinds.includes(chosenKind) ? chosenKind : kinds[0];
  const imeis = kind ? devices.filter((d) => offers(d.Sensor, kind)).map((d) => d.IMEI) : [];

  let body;
  if (tree.isPending) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (devices.length === 0) body = <Empty className="wt-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('media.pickDevice')} data-testid="media-no-device" />;
  else if (kind === undefined) body = <Empty className="wt-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('media.noMediaSensor')} data-testid="media-no-sensor" />;
  else if (kind === 'image') body = <ImageGrid imeis={imeis} names={names} start={start} end={end} />;
  else if (kind === 'video') body = <VideoPanel imeis={imeis} names={names} start={start} end={end} />;
  else body = <AudioPanel imeis={imeis} names={names} start={start} end={end} />;

  return (
    <Card className="wt-page-card wt-media-card" variant="borderless" data-testid="media-page" data-kind={kind ?? ''} data-imeis={imeis.join(',')}>
      <ContextInUrl page="map" />
      <div className="wt-media-bar">
        <DevicePicker value={selection.imeis} onChange={selection.setImeis} />
        <TimeRangePicker value={selection.range} onChange={selection.setRange} />
        {kinds.length > 0 && kind ? (
          <Segmented
            data-testid="media-kinds"
            value={kind}
            onChange={(v) => setKind(v as MediaKindCall)}
            options={kinds.map((k) => ({ value: k, label: t(`media.kind.${k}`), icon: ICONS[k] }))}
          />
        ) : null}
      </div>
      {body}
    </Card>
  );
}
