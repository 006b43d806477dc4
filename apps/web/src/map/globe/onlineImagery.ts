import { Credit, UrlTemplateImageryProvider, type CesiumWidget, type ImageryLayer } from 'cesium';
import { tileVerdict, type RasterTiles, type TileHealth } from '../layers';
import { subdomainTemplate } from './tiles';

/**
 * The chosen online layer's rasters over the offline imagery. Their tiles are watched until the first
 * one arrives: several errors and nothing loaded (or nothing at all for a while, see `judge`) take the
 * rasters off again and call `onFallback`. What the globe draws shows on its element: data-imagery is
 * the layer once one of its tiles has arrived, 'offline' before and without.
 */
export class OnlineImagery {
  private readonly layers: ImageryLayer[] = [];
  private readonly health: TileHealth = { loaded: 0, errors: 0, elapsedMs: 0 };
  private readonly started = performance.now();
  private settled = false;

  constructor(
    private readonly globe: CesiumWidget,
    signature: string,
    private readonly drawn: string,
    private readonly onFallback: () => void,
  ) {
    const rasters = signature ? (JSON.parse(signature) as RasterTiles[]) : [];
    // The offline imagery is what shows until a tile of the chosen layer has arrived.
    this.mark('offline');
    if (rasters.length === 0) this.settled = true;
    for (const raster of rasters) {
      const provider = new UrlTemplateImageryProvider({
        ...subdomainTemplate(raster.tiles),
        maximumLevel: raster.maxZoom,
        // On the globe itself, not behind Cesium's (English-only) "Data attribution" link.
        ...(raster.attribution ? { credit: new Credit(escapeHtml(raster.attribution), true) } : {}),
      });
      const request = provider.requestImage.bind(provider);
      provider.requestImage = (x, y, level, req) => {
        const image = request(x, y, level, req);
        void image?.then(
          () => this.count('loaded'),
          () => undefined,
        );
        return image;
      };
      // A listener also keeps Cesium from logging every failed tile to the console.
      provider.errorEvent.addEventListener(() => this.count('errors'));
      this.layers.push(globe.imageryLayers.addImageryProvider(provider));
    }
  }

  /** Decides whether the layer works, once enough has happened (also called by a timer). */
  judge(): void {
    if (this.settled) return;
    this.health.elapsedMs = performance.now() - this.started;
    const verdict = tileVerdict(this.health);
    if (verdict === 'waiting') return;
    this.settled = true;
    if (verdict === 'ok') this.mark(this.drawn);
    if (verdict === 'fallback') {
      this.remove();
      this.onFallback();
    }
  }

  remove(): void {
    this.settled = true;
    if (this.globe.isDestroyed()) return;
    for (const layer of this.layers.splice(0)) this.globe.imageryLayers.remove(layer, true);
    this.mark('offline');
    this.globe.scene.requestRender();
  }

  private count(what: 'loaded' | 'errors'): void {
    if (this.settled) return;
    this.health[what] += 1;
    this.judge();
  }

  private mark(imagery: string): void {
    (this.globe.container as HTMLElement).dataset.imagery = imagery;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
