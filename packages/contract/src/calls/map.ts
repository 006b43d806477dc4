import { z } from 'zod';
import { defineCall, EmptyBody } from '../call.js';

/**
 * The global tile layers of §2.5 (satellite, street, terrain). Their URL templates come from the server,
 * so a field station can point the maps at its own tile server; the defaults are providers that need no
 * key. The national (Tianditu) layers need the user's own key (GetAccountSetting.TdtKey) and are built by
 * the web from it.
 */
export const GLOBAL_TILE_LAYERS = ['satellite', 'street', 'terrain'] as const;
export type GlobalTileLayer = (typeof GLOBAL_TILE_LAYERS)[number];

/** A URL template with {z}, {x} and {y} (XYZ scheme), e.g. https://tile.example.org/{z}/{x}/{y}.png. */
export const TILE_URL_TEMPLATE = /^https?:\/\/\S+$/;
export function isTileUrlTemplate(url: string): boolean {
  return TILE_URL_TEMPLATE.test(url) && url.includes('{z}') && url.includes('{x}') && url.includes('{y}');
}

export const TileSourceSchema = z.object({
  /** One or more URL templates of the same tiles (several spread the requests over hosts). */
  Tiles: z.array(z.string()).min(1),
  Attribution: z.string(),
  MaxZoom: z.number().int().min(1).max(22),
});
export type TileSource = z.infer<typeof TileSourceSchema>;

export const TileLayersSchema = z.object({
  Satellite: TileSourceSchema,
  Street: TileSourceSchema,
  Terrain: TileSourceSchema,
});
export type TileLayers = z.infer<typeof TileLayersSchema>;

/** Keyless providers, used unless the server's environment names others. */
export const DEFAULT_TILE_LAYERS: TileLayers = {
  Satellite: {
    Tiles: ['https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}'],
    Attribution: 'Imagery © Esri, Maxar, Earthstar Geographics',
    MaxZoom: 19,
  },
  Street: {
    Tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
    Attribution: '© OpenStreetMap contributors',
    MaxZoom: 19,
  },
  Terrain: {
    Tiles: ['https://a.tile.opentopomap.org/{z}/{x}/{y}.png', 'https://b.tile.opentopomap.org/{z}/{x}/{y}.png', 'https://c.tile.opentopomap.org/{z}/{x}/{y}.png'],
    Attribution: '© OpenStreetMap contributors, SRTM | © OpenTopoMap (CC-BY-SA)',
    MaxZoom: 17,
  },
};

export const GetTileLayers = defineCall({
  path: '/api/Map/GetTileLayers',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: TileLayersSchema,
  summary: 'URL templates of the global map tile layers (satellite, street, terrain), as this server is configured.',
});
