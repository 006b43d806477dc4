import type { TFunction } from 'i18next';
import type { Map as MapLibreMap } from 'maplibre-gl';

/** MapLibre's own UI strings in the interface language (its built-in table is English only). */
export function mapLocale(t: TFunction): Record<string, string> {
  return {
    'NavigationControl.ZoomIn': t('map.control.zoomIn'),
    'NavigationControl.ZoomOut': t('map.control.zoomOut'),
    'AttributionControl.ToggleAttribution': t('map.control.attribution'),
    'Map.Title': t('map.control.map'),
    'Popup.Close': t('map.control.closePopup'),
  };
}

/**
 * Names MapLibre's icon buttons (zoom in and out, the attribution toggle) and the map itself in the
 * interface language, again after a language change: MapLibre reads its UI strings only when a control
 * is added, so the buttons it made are renamed in place, and popups made later read the new table.
 */
export function nameMapControls(map: MapLibreMap, t: TFunction): void {
  const locale = mapLocale(t);
  Object.assign(map._locale, locale);
  const box = map.getContainer();
  const name = (selector: string, text: string | undefined) => {
    if (text === undefined) return;
    box.querySelectorAll(selector).forEach((el) => {
      el.setAttribute('title', text);
      el.setAttribute('aria-label', text);
    });
  };
  name('.maplibregl-ctrl-zoom-in', locale['NavigationControl.ZoomIn']);
  name('.maplibregl-ctrl-zoom-out', locale['NavigationControl.ZoomOut']);
  name('.maplibregl-ctrl-attrib-button', locale['AttributionControl.ToggleAttribution']);
  map.getCanvas().setAttribute('aria-label', locale['Map.Title'] ?? '');
}
