import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Descriptions, Modal, Tooltip } from 'antd';
import type { ImageFix } from '@wildtrack/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MapView } from '../../../map/MapView';
import { PointPicker } from '../../../map/PointPicker';
import { positionText, sizeText } from './states';

interface Props {
  fix: ImageFix;
  /** The device's name. */
  device: string;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  onClose: () => void;
}

/**
 * One image at full size with its media fix (time in the user's zone, as the server wrote it), and a
 * small offline map of where it was taken. Left and right arrows step through the images, Escape closes.
 */
export function ImageViewer({ fix, device, hasPrev, hasNext, onPrev, onNext, onClose }: Props) {
  const { t } = useTranslation();
  const keys = useRef({ onPrev, onNext, hasPrev, hasNext });
  useEffect(() => {
    keys.current = { onPrev, onNext, hasPrev, hasNext };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'ArrowLeft' && keys.current.hasPrev) keys.current.onPrev();
      else if (e.key === 'ArrowRight' && keys.current.hasNext) keys.current.onNext();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const where = positionText(fix.Longitude, fix.Latitude);
  return (
    <Modal open onCancel={onClose} footer={null} width={960} centered title={fix.PickTime} data-testid="media-viewer" destroyOnHidden>
      <div className="wt-media-viewer" data-testid="media-viewer-body" data-time={fix.PickTime}>
        <div className="wt-media-viewer-image">
          <Tooltip title={t('media.previous')}>
            <Button shape="circle" icon={<LeftOutlined />} aria-label={t('media.previous')} disabled={!hasPrev} onClick={onPrev} />
          </Tooltip>
          <img src={fix.Url} alt={t('media.imageAt', { time: fix.PickTime })} data-testid="media-viewer-image" />
          <Tooltip title={t('media.next')}>
            <Button shape="circle" icon={<RightOutlined />} aria-label={t('media.next')} disabled={!hasNext} onClick={onNext} />
          </Tooltip>
        </div>
        <div className="wt-media-viewer-side">
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('media.field.device')}>{device}</Descriptions.Item>
            <Descriptions.Item label={t('media.field.time')}>{fix.PickTime}</Descriptions.Item>
            <Descriptions.Item label={t('media.field.position')}>{where ?? t('media.noPosition')}</Descriptions.Item>
            <Descriptions.Item label={t('media.field.altitude')}>{fix.Altitude === null ? '—' : `${fix.Altitude} m`}</Descriptions.Item>
            <Descriptions.Item label={t('media.field.dimensions')}>{fix.Width && fix.Height ? `${fix.Width} × ${fix.Height}` : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('media.field.size')}>{sizeText(fix.Size)}</Descriptions.Item>
          </Descriptions>
          {where ? (
            <div className="wt-media-map" data-testid="media-viewer-map">
              <MapView className="wt-map" center={[fix.Longitude!, fix.Latitude!]} zoom={6} fallback={<div className="wt-map-fallback">{t('media.mapUnavailable')}</div>}>
                <PointPicker lon={fix.Longitude} lat={fix.Latitude} />
              </MapView>
            </div>
          ) : null}
        </div>
      </div>
    </Modal>
  );
}
