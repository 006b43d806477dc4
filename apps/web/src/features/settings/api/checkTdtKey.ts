import { tiandituTiles } from '../../../map/layers';

/** How long the test tile may take; a key that can't show a tile in this time can't draw a map either. */
export const KEY_CHECK_TIMEOUT_MS = 8000;

/** One tile of the vector layer (zoom 1, the eastern half of the north): the least that proves a key. */
export function keyCheckTileUrl(key: string): string {
  const [template = ''] = tiandituTiles('vec', key);
  return template.replace('{z}', '1').replace('{y}', '0').replace('{x}', '1');
}

/**
 * Whether Tianditu serves a tile with this key (§5 Settings). The tile is loaded as an image, as the
 * maps load it (no CORS needed, the same referrer a domain-bound key is checked against): a refusal
 * (403), an answer that isn't an image, a network error or no answer in time all mean the key can't be
 * used.
 */
export function checkTdtKey(key: string, timeoutMs: number = KEY_CHECK_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const img = new Image();
    const finish = (ok: boolean): void => {
      window.clearTimeout(timer);
      img.onload = null;
      img.onerror = null;
      if (!ok) img.removeAttribute('src');
      resolve(ok);
    };
    const timer = window.setTimeout(() => finish(false), timeoutMs);
    img.onload = () => finish(img.naturalWidth > 0);
    img.onerror = () => finish(false);
    img.src = keyCheckTileUrl(key);
  });
}
