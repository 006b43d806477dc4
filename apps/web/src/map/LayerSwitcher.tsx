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
  /** Why the offline basemap stands in for the chosen layer (the box then says so), null when it doesn't. */
  standIn?: BaseLayerNotice;
  className?: string;
}

/**
 * The tile layer picker of §2.5 (global, national, and the offline basemap), for any map screen; it shows
 * "Offline basemap (no internet)" while the offline basemap stands in for the chosen layer.
 */
export function LayerSwitcher({ value, onChange, standIn = null, className }: Props) {
  const { t } = useTranslation();
  return (
    <Select<BaseLayerId>
      className={className}
      data-testid="layer-switcher"
      data-stand-in={standIn ?? ''}
      // The chosen layer's id (the box shows its name, or the stand-in's): tests and support read it.
      data-layer={value}
      aria-label={t('map.layer.title')}
      value={value}
      onChange={onChange}
      // The box names what is drawn: when the offline basemap stands in for the chosen layer, it says so
      // (the list still marks the chosen layer).
      labelRender={({ label }) =>
        standIn ? (
          <span className="wt-layer-stand-in" title={String(label ?? '')}>
            {t(`map.layer.standIn.${standIn}`)}
          </span>
        ) : (
          label
        )
      }
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
