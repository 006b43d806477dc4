import { useTranslation } from 'react-i18next';
import { MapView } from '../../../map/MapView';
import { PointPicker } from '../../../map/PointPicker';

interface Props {
  lon: number | null;
  lat: number | null;
  onPick?: ((lon: number, lat: number) => void) | undefined;
}

/** The release point on a small map (loaded on demand: the map library is large). */
export default function ReleaseMap({ lon, lat, onPick }: Props) {
  const { t } = useTranslation();
  const has = lon !== null && lat !== null;
  return (
    <MapView className="wt-map" center={has ? [lon, lat] : [0, 20]} zoom={has ? 4 : 0.6} fallback={<div className="wt-map-fallback">{t('animal.mapUnavailable')}</div>}>
      <PointPicker lon={lon} lat={lat} onPick={onPick} />
    </MapView>
  );
}
