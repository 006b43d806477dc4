import { Result, Segmented, Spin, Tag, Tooltip } from 'antd';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cssColor, deviceColor } from '../../map/deck/trackData';
import { fixAt, trackLine } from '../../map/globe/trackLine';
import { UnknownDeviceNotice } from '../../components/UnknownDeviceNotice';
import { useLocate, useUnknownMapDevices } from '../../lib/contextUrl';
import { MapPageFrame, useMapPage } from '../../map/MapPageFrame';
import { DevicePicker, useDeviceTree } from '../../widgets/device-tree';
import './map3d.css';

/** CesiumJS (a few MB) loads only here, while the rest of the screen already works. */
const Globe3d = lazy(() => import('./components/Globe3d'));

/** How many times their value heights are drawn: true scale, or enough to see a flight over a long way. */
const EXAGGERATIONS = [1, 5, 20] as const;

/**
 * /map3d (§2.1): the chosen devices' tracks on a CesiumJS globe, at their altitudes, with the same device
 * selection, time range, tile layers (§2.5) and replay as /map2d. The globe needs no network: its base
 * imagery is bundled, and the online layers go over it when they can be reached.
 */
export default function Map3dPage() {
  const { t } = useTranslation();
  const page = useMapPage();
  // a shared link may name devices this viewer cannot see: dropped, and said
  const linked = useUnknownMapDevices(useLocate(useDeviceTree().data));
  const { base, colors, shown, replay, range, selection } = page;
  const [exaggeration, setExaggeration] = useState<number>(1);

  const captionOf = useCallback((imei: string) => page.captions.get(imei), [page.captions]);
  const colorOf = useCallback((imei: string, i: number) => cssColor(colors.get(imei) ?? deviceColor(i)), [colors]);
  const lines = useMemo(() => shown.map(trackLine).filter((line) => line.count > 0), [shown]);
  const fallback = (
    <div className="wt-map3d-fallback" data-testid="globe-unavailable">
      <Result status="info" title={t('map3d.unavailable')} subTitle={t('map3d.unavailableHint')} />
    </div>
  );

  return (
    <MapPageFrame
      name="map3d"
      page={page}
      devicePicker={<DevicePicker value={page.selection.imeis} onChange={page.selection.setImeis} />}
      notice={<UnknownDeviceNotice imeis={linked.unknown} onClose={linked.dismiss} />}
      fallback={fallback}
      bodyClassName="wt-map3d-body"
      hasFixes={lines.length > 0}
      tools={
        <Tooltip title={t('map3d.exaggerationHint')}>
          <Segmented<number>
            size="small"
            aria-label={t('map3d.exaggeration')}
            data-testid="altitude-scale"
            value={exaggeration}
            onChange={setExaggeration}
            options={EXAGGERATIONS.map((x) => ({ value: x, label: `${t('map3d.altitude')} ×${x}` }))}
          />
        </Tooltip>
      }
      legend={lines.map((line, i) => {
        const index = replay.time === null ? line.count - 1 : fixAt(line, replay.time);
        // The height of the fix the marker is at.
        const height = index >= 0 && line.hasAlt[index] ? Math.round(line.coords[index * 3 + 2]!) : null;
        return {
          imei: line.imei,
          caption: page.captions.get(line.imei) ?? '',
          color: colorOf(line.imei, i),
          count: line.count,
          index,
          time: index >= 0 ? line.times[index]! : null,
          data: { 'data-altitude': height ?? '' },
          extra: (
            <Tag variant="filled" color={height === null ? undefined : 'blue'}>
              {height === null ? t('map3d.noAltitude') : t('map3d.altitudeValue', { value: height })}
            </Tag>
          ),
        };
      })}
    >
      <Suspense
        fallback={
          <div className="wt-map3d-loading" data-testid="globe-loading">
            <Spin description={t('map3d.loadingGlobe')} />
          </div>
        }
      >
        <Globe3d
          layer={base.drawn}
          onLayerFallback={base.fallBack}
          lines={lines}
          colorOf={colorOf}
          time={replay.time}
          exaggeration={exaggeration}
          fitKey={`${selection.imeis.join(',')}|${range.start}|${range.end}`}
          fallback={fallback}
          captionOf={captionOf}
          zone={page.zone}
        />
      </Suspense>
    </MapPageFrame>
  );
}
