import { tiandituTiles } from '../../../map/layers';

/** How long the test tile may take; a key that can't show a tile in this time can't draw a map either. */
export const KEY_CHECK_TIMEOUT_MS = 8000;

/** One tile of the vector layer (zoom 1, the eastern half of the north): the least that proves a key. */
export function keyCheckTileUrl(key: string): string {
  const [template = ''] = tiandituTiles('vec', key);
  return template.replace('{z}', '1').replace('{y}', '0').replace('{x}', '1');
}

/** What the test tile said of a key: it works, Tianditu refused it, or Tianditu could not be asked. */
export type KeyCheck = 'ok' | 'refused' | 'unreachable';

/**
 * Whether Tianditu answers at all: a no-cors request resolves (with an opaque answer) whenever the host
 * answers, whatever the status, and fails only when it can't be reached (no network, no DNS, a proxy).
 */
async function hostAnswers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether Tianditu serves a tile with this key (§5 Settings). The tile is loaded as an image, as the
 * maps load it (no CORS needed, the same referrer a domain-bound key is checked against). An image means
 * the key works. When no image comes, a second request tells a refusal (Tianditu answered: a 403 or an
 * answer that isn't an image) from a host out of reach (offline, or no answer in time): only the first
 * says the key is wrong.
 */
export async function checkTdtKey(key: string, timeoutMs: number = KEY_CHECK_TIMEOUT_MS): Promise<KeyCheck> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'unreachable';
  const url = keyCheckTileUrl(key);
  const loaded = await new Promise<boolean | 'timeout'>((resolve) => {
    const img = new Image();
    const finish = (ok: boolean | 'timeout'): void => {
      window.clearTimeout(timer);
      img.onload = null;
      img.onerror = null;
      if (ok !== true) img.removeAttribute('src');
      resolve(ok);
    };
    const timer = window.setTimeout(() => finish('timeout'), timeoutMs);
    img.onload = () => finish(img.naturalWidth > 0);
    img.onerror = () => finish(false);
    img.src = url;
  });
  if (loaded === true) return 'ok';
  if (loaded === 'timeout') return 'unreachable';
  return (await hostAnswers(url, timeoutMs)) ? 'refused' : 'unreachable';
}
