import { DEFAULT_TILE_LAYERS } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import {
  defaultBaseLayer,
  resolveBaseLayer,
  tiandituTiles,
  TILE_ERRORS_BEFORE_FALLBACK,
  TILE_WAIT_BEFORE_FALLBACK_MS,
  tileVerdict,
} from './layers';

describe('map layers', () => {
  it('defaults to the national vector layer for a zh-CN browser, the global image layer otherwise (§2.5)', () => {
    expect(defaultBaseLayer('zh-CN')).toBe('tdt-vector');
    expect(defaultBaseLayer('zh-cn')).toBe('tdt-vector');
    expect(defaultBaseLayer('en-US')).toBe('satellite');
    expect(defaultBaseLayer('zh-TW')).toBe('satellite');
    expect(defaultBaseLayer('de')).toBe('satellite');
    expect(defaultBaseLayer(undefined)).toBe('satellite');
  });

  it("draws the global layers from the server's URL templates", () => {
    const street = resolveBaseLayer('street', { tileLayers: DEFAULT_TILE_LAYERS, tdtKey: '' });
    expect(street).toEqual({
      kind: 'tiles',
      layer: 'street',
      rasters: [{ id: 'street', tiles: DEFAULT_TILE_LAYERS.Street.Tiles, attribution: DEFAULT_TILE_LAYERS.Street.Attribution, maxZoom: 19 }],
    });
    // Before the server has answered there is nothing to draw but the offline basemap.
    expect(resolveBaseLayer('satellite', { tileLayers: undefined, tdtKey: '' })).toMatchObject({ kind: 'offline', reason: 'no-config' });
  });

  it('draws a Tianditu layer as base plus label overlay with the user key, and needs a key', () => {
    const image = resolveBaseLayer('tdt-image', { tileLayers: DEFAULT_TILE_LAYERS, tdtKey: ' k&1 ' });
    expect(image.kind).toBe('tiles');
    if (image.kind !== 'tiles') return;
    expect(image.rasters.map((r) => r.id)).toEqual(['tdt-image-img', 'tdt-image-cia']);
    expect(image.rasters[0]!.tiles).toHaveLength(8);
    expect(image.rasters[0]!.tiles[3]).toBe(
      'https://t3.tianditu.gov.cn/img_w/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=img&STYLE=default&TILEMATRIXSET=w&FORMAT=tiles&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk=k%261',
    );
    expect(tiandituTiles('cta', 'abc')[0]).toContain('/cta_w/wmts?');
    expect(resolveBaseLayer('tdt-vector', { tileLayers: DEFAULT_TILE_LAYERS, tdtKey: '' })).toEqual({ kind: 'offline', layer: 'tdt-vector', reason: 'no-key' });
    expect(resolveBaseLayer('tdt-terrain', { tileLayers: DEFAULT_TILE_LAYERS, tdtKey: undefined })).toMatchObject({ kind: 'offline', reason: 'no-key' });
    expect(resolveBaseLayer('offline', { tileLayers: DEFAULT_TILE_LAYERS, tdtKey: 'k' })).toEqual({ kind: 'offline', layer: 'offline', reason: 'chosen' });
  });

  it('falls back to the offline basemap when tiles fail and none loaded, or none came in time', () => {
    expect(tileVerdict({ loaded: 0, errors: 0, elapsedMs: 100 })).toBe('waiting');
    expect(tileVerdict({ loaded: 0, errors: TILE_ERRORS_BEFORE_FALLBACK - 1, elapsedMs: 100 })).toBe('waiting');
    expect(tileVerdict({ loaded: 0, errors: TILE_ERRORS_BEFORE_FALLBACK, elapsedMs: 100 })).toBe('fallback');
    expect(tileVerdict({ loaded: 0, errors: 0, elapsedMs: TILE_WAIT_BEFORE_FALLBACK_MS })).toBe('fallback');
    // One tile is enough to show the layer works: later errors (an edge tile, a flaky host) don't count.
    expect(tileVerdict({ loaded: 1, errors: 20, elapsedMs: 60_000 })).toBe('ok');
  });
});
