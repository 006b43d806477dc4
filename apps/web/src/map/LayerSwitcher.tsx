import { Alert, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { BASE_LAYER_GROUPS, type BaseLayerId } from './layers';
import type { BaseLayerNotice } from './useBaseLayer';

/** i18n keys of the layer names (map.layer.*). */
const LABEL_KEY: Record<BaseLayerId, string> = {
  satellite: 'map.layer.satellite',
  street: 'map.layer.street',
  terrain: 'map.layer.terrain',
  'tdt-vector': 'map.layer.tdtVector',
  'tdt-image': 'map.layer.tdtImage',
  'tdt-terrain': 'map.layer.tdtTerrain',
  offline: 'map.layer.offline',
};

interface Props {
  value: BaseLayerId;
  onChange: (layer: BaseLayerId) => void;
  className?: string;
}

/** The tile layer picker of §2.5 (global, national, and the offline basemap), for any map screen. */
export function LayerSwitcher({ value, onChange, className }: Props) {
  const { t } = useTranslation();
  return (
    <Select<BaseLayerId>
      className={className}
      data-testid="layer-switcher"
      aria-label={t('map.layer.title')}
      value={value}
      onChange={onChange}
      popupMatchSelectWidth={false}
      style={{ minWidth: 150 }}
      options={BASE_LAYER_GROUPS.map(({ group, layers }) => ({
        label: t(`map.layer.group.${group}`),
        title: t(`map.layer.group.${group}`),
        options: layers.map((layer) => ({ value: layer, label: t(LABEL_KEY[layer]) })),
      }))}
    />
  );
}

/** Says why the offline basemap shows instead of the chosen layer. */
export function BaseLayerNoticeBar({ notice, className }: { notice: BaseLayerNotice; className?: string }) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <Alert
      className={className}
      data-testid="base-layer-notice"
      data-notice={notice}
      type={notice === 'no-key' ? 'warning' : 'info'}
      showIcon
      title={notice === 'no-key' ? t('map.layer.noKey') : t('map.layer.unreachable')}
    />
  );
}
