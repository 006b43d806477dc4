import type { Map as MapLibreMap } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import i18n from '../i18n/i18n';
import { nameMapControls } from './controlNames';

/** A map as far as nameMapControls sees it: MapLibre's control buttons as it makes them, in English. */
function fakeMap(): { map: MapLibreMap; box: HTMLElement; canvas: HTMLCanvasElement; locale: Record<string, string> } {
  const box = document.createElement('div');
  box.innerHTML = `<button class="maplibregl-ctrl-zoom-in" title="Zoom in" aria-label="Zoom in"></button>
    <button class="maplibregl-ctrl-zoom-out" title="Zoom out" aria-label="Zoom out"></button>
    <button class="maplibregl-ctrl-attrib-button" title="Toggle attribution" aria-label="Toggle attribution"></button>`;
  const canvas = document.createElement('canvas');
  const locale: Record<string, string> = {};
  const map = { _locale: locale, getContainer: () => box, getCanvas: () => canvas } as unknown as MapLibreMap;
  return { map, box, canvas, locale };
}

describe('nameMapControls', () => {
  it("names MapLibre's icon buttons and the map in the interface language, again after a switch", async () => {
    const { map, box, canvas, locale } = fakeMap();
    await i18n.changeLanguage('zh-CN');
    nameMapControls(map, i18n.t);
    const zoomIn = box.querySelector('.maplibregl-ctrl-zoom-in')!;
    expect([zoomIn.getAttribute('aria-label'), zoomIn.getAttribute('title')]).toEqual(['放大', '放大']);
    expect(box.querySelector('.maplibregl-ctrl-zoom-out')!.getAttribute('aria-label')).toBe('缩小');
    expect(box.querySelector('.maplibregl-ctrl-attrib-button')!.getAttribute('aria-label')).toBe('显示或隐藏地图来源');
    expect(canvas.getAttribute('aria-label')).toBe('地图');
    expect(locale['Popup.Close']).toBe('关闭');

    await i18n.changeLanguage('en-US');
    nameMapControls(map, i18n.t);
    expect(zoomIn.getAttribute('aria-label')).toBe('Zoom in');
    expect(box.querySelector('.maplibregl-ctrl-attrib-button')!.getAttribute('title')).toBe('Show or hide the map sources');
    expect(locale['Popup.Close']).toBe('Close');
  });
});
