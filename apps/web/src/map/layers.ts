import { defaultLang, type TileLayers, type TileSource } from '@wildtrack/contract';
import { readStored, writeStored } from '../browser/storage';

/**
 * The map tile layers of §2.5, shared by every map (2D map, globe, small maps): three global layers whose
 * URL templates the server gives (GetTileLayers), three national (Tianditu) layers, each a base and a
 * label overlay, drawn with the user's own key (settings, GetAccountSetting.TdtKey), and the offline
 * basemap bundled with the app (offlineStyle.ts), which needs no network at all.
 *
 * Nothing here knows MapLibre: the layers are described as raster tile URL lists any map can draw.
 */

export const BASE_LAYERS = ['satellite', 'street', 'terrain', 'tdt-vector', 'tdt-image', 'tdt-terrain', 'offline'] as const;
export type BaseLayerId = (typeof BASE_LAYERS)[number];

export const BASE_LAYER_GROUPS: readonly { group: 'global' | 'national' | 'local'; layers: readonly BaseLayerId[] }[] = [
  { group: 'global', layers: ['satellite', 'street', 'terrain'] },
  { group: 'national', layers: ['tdt-vector', 'tdt-image', 'tdt-terrain'] },
  { group: 'local', layers: ['offline'] },
];

export function isBaseLayerId(value: unknown): value is BaseLayerId {
  return typeof value === 'string' && (BASE_LAYERS as readonly string[]).includes(value);
}

/** §2.5: the national vector layer when the browser language is zh-CN, otherwise the global image layer. */
export function defaultBaseLayer(browserLanguage: string | undefined): BaseLayerId {
  return defaultLang(browserLanguage) === 'zh' ? 'tdt-vector' : 'satellite';
}

/** One raster tile source: what a map needs to draw it. */
export interface RasterTiles {
  id: string;
  tiles: string[];
  attribution: string;
  maxZoom: number;
}

export type ResolvedBaseLayer =
  | { kind: 'tiles'; layer: BaseLayerId; rasters: RasterTiles[] }
  /** The offline basemap: chosen, or the only thing that can be drawn (no key, no URLs yet). */
  | { kind: 'offline'; layer: BaseLayerId; reason: 'chosen' | 'no-key' | 'no-config' };

/** Tianditu's layer codes: base and label overlay for vector, image and terrain (Web Mercator, `_w`). */
const TIANDITU: Record<'tdt-vector' | 'tdt-image' | 'tdt-terrain', readonly [string, string]> = {
  'tdt-vector': ['vec', 'cva'],
  'tdt-image': ['img', 'cia'],
  'tdt-terrain': ['ter', 'cta'],
};
const TIANDITU_HOSTS = 8;
const TIANDITU_ATTRIBUTION = '© 天地图 Tianditu';

/** The WMTS GetTile templates of one Tianditu layer on its eight hosts, with the user's key. */
export function tiandituTiles(code: string, key: string): string[] {
  const tk = encodeURIComponent(key);
  return Array.from(
    { length: TIANDITU_HOSTS },
    (_, i) =>
      `https://t${i}.tianditu.gov.cn/${code}_w/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${code}&STYLE=default` +
      `&TILEMATRIXSET=w&FORMAT=tiles&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk=${tk}`,
  );
}

function fromSource(id: string, source: TileSource): RasterTiles {
  return { id, tiles: source.Tiles, attribution: source.Attribution, maxZoom: source.MaxZoom };
}

export function resolveBaseLayer(layer: BaseLayerId, opts: { tileLayers: TileLayers | undefined; tdtKey: string | undefined }): ResolvedBaseLayer {
  if (layer === 'offline') return { kind: 'offline', layer, reason: 'chosen' };
  if (layer === 'tdt-vector' || layer === 'tdt-image' || layer === 'tdt-terrain') {
    const key = opts.tdtKey?.trim();
    if (!key) return { kind: 'offline', layer, reason: 'no-key' };
    const [base, label] = TIANDITU[layer];
    return {
      kind: 'tiles',
      layer,
      rasters: [
        { id: `${layer}-${base}`, tiles: tiandituTiles(base, key), attribution: TIANDITU_ATTRIBUTION, maxZoom: 18 },
        { id: `${layer}-${label}`, tiles: tiandituTiles(label, key), attribution: '', maxZoom: 18 },
      ],
    };
  }
  if (!opts.tileLayers) return { kind: 'offline', layer, reason: 'no-config' };
  const source = layer === 'satellite' ? opts.tileLayers.Satellite : layer === 'street' ? opts.tileLayers.Street : opts.tileLayers.Terrain;
  return { kind: 'tiles', layer, rasters: [fromSource(layer, source)] };
}

/**
 * When the chosen layer's tiles can't be had (no network, a blocked host, a wrong key), the map shows the
 * offline basemap instead. The verdict is taken from what the tiles did since the layer was chosen: one
 * tile loaded means the layer works; several errors and nothing loaded, or nothing at all after a few
 * seconds, mean it doesn't.
 */
export interface TileHealth {
  loaded: number;
  errors: number;
  elapsedMs: number;
}
export const TILE_ERRORS_BEFORE_FALLBACK = 3;
export const TILE_WAIT_BEFORE_FALLBACK_MS = 6000;

export type TileVerdict = 'ok' | 'waiting' | 'fallback';

export function tileVerdict(health: TileHealth): TileVerdict {
  if (health.loaded > 0) return 'ok';
  if (health.errors >= TILE_ERRORS_BEFORE_FALLBACK) return 'fallback';
  if (health.elapsedMs >= TILE_WAIT_BEFORE_FALLBACK_MS) return 'fallback';
  return 'waiting';
}

/** The layer the user chose last is kept in this browser; without one, §2.5's default. */
const STORAGE_KEY = 'wildtrack_base_layer';

export function storedBaseLayer(): BaseLayerId | undefined {
  return readStored('local', STORAGE_KEY, isBaseLayerId);
}

export function storeBaseLayer(layer: BaseLayerId): void {
  // storage blocked: the choice lasts while the page is open
  writeStored('local', STORAGE_KEY, layer);
}

export function initialBaseLayer(): BaseLayerId {
  return storedBaseLayer() ?? defaultBaseLayer(typeof navigator === 'undefined' ? undefined : navigator.language);
}
