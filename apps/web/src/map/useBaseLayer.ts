import { useQuery } from '@tanstack/react-query';
import { GetAccountSetting, GetTileLayers } from '@wildtrack/contract';
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { call } from '../lib/api';
import { queryKeys } from '../lib/queryKeys';
import { useSignedIn } from '../lib/session';
import { initialBaseLayer, resolveBaseLayer, storeBaseLayer, type BaseLayerId, type ResolvedBaseLayer } from './layers';

/** Why the offline basemap shows instead of the chosen layer; null when the chosen layer shows. */
export type BaseLayerNotice = 'no-key' | 'unreachable' | null;

export interface BaseLayerState {
  /** The layer the user chose (or §2.5's default). */
  chosen: BaseLayerId;
  choose: (layer: BaseLayerId) => void;
  /** What the map draws: the chosen layer, or the offline basemap when it can't be drawn. */
  drawn: ResolvedBaseLayer;
  notice: BaseLayerNotice;
  /** The map reports that the chosen layer's tiles don't load (BaseLayer's onFallback). */
  fallBack: () => void;
}

/**
 * The base layer of a map screen, independent of the map library (the 2D map and the globe share it):
 * the choice (kept in this browser), the server's tile URLs, the user's Tianditu key, and the fallback
 * to the offline basemap.
 */
export function useBaseLayer(): BaseLayerState {
  const signedIn = useSignedIn();
  const [chosen, setChosen] = useState<BaseLayerId>(initialBaseLayer);
  // The layer whose tiles failed; choosing again (even the same layer) tries once more.
  const [failed, setFailed] = useState<{ layer: BaseLayerId; attempt: number } | null>(null);
  const [attempt, setAttempt] = useState(0);

  const tileLayers = useQuery({
    queryKey: queryKeys.tileLayers,
    queryFn: ({ signal }) => call(GetTileLayers, undefined, { loading: false, repeatCheck: false, signal }),
    staleTime: Infinity,
    enabled: signedIn,
  });
  const setting = useQuery({
    queryKey: queryKeys.accountSetting,
    queryFn: ({ signal }) => call(GetAccountSetting, undefined, { loading: false, repeatCheck: false, signal }),
    staleTime: 5 * 60_000,
    enabled: signedIn,
  });

  const resolved = useMemo(
    () => resolveBaseLayer(chosen, { tileLayers: tileLayers.data, tdtKey: setting.data?.TdtKey }),
    [chosen, tileLayers.data, setting.data?.TdtKey],
  );
  const unreachable = failed !== null && failed.layer === chosen && failed.attempt === attempt;
  const drawn: ResolvedBaseLayer = unreachable ? { kind: 'offline', layer: chosen, reason: 'chosen' } : resolved;
  // The key is known missing only once the settings have been read.
  const notice: BaseLayerNotice =
    resolved.kind === 'offline' && resolved.reason === 'no-key' && setting.isFetched ? 'no-key' : unreachable ? 'unreachable' : null;

  const choose = useCallback((layer: BaseLayerId) => {
    storeBaseLayer(layer);
    setChosen(layer);
    setAttempt((n) => n + 1);
  }, []);
  const fallBack = useCallback(() => setFailed({ layer: chosen, attempt }), [chosen, attempt]);

  return { chosen, choose, drawn, notice, fallBack };
}

/**
 * What an overlay drawing the base layer works from (BaseLayer on the 2D map, GlobeImagery on the globe):
 * the rasters as a signature compared by content (a new but equal layer object keeps the tiles already
 * loaded; '' for the offline basemap), the name of the layer drawn, and the latest fallback callback (a
 * new callback does not redraw).
 */
export function useDrawnBaseLayer(
  layer: ResolvedBaseLayer,
  onFallback: () => void,
): { signature: string; drawn: string; fallback: RefObject<() => void> } {
  const fallback = useRef(onFallback);
  useEffect(() => {
    fallback.current = onFallback;
  }, [onFallback]);
  const signature = layer.kind === 'tiles' ? JSON.stringify(layer.rasters) : '';
  const drawn = layer.kind === 'tiles' ? layer.layer : 'offline';
  return { signature, drawn, fallback };
}
