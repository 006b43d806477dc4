import type { Layer, PickingInfo } from '@deck.gl/core';
import { ScatterplotLayer } from '@deck.gl/layers';
import { MapboxOverlay } from '@deck.gl/mapbox';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DecodedTrack } from '../lib/tracks/types';
import { gatherColors, GPU_SEGMENT_BUDGET, isSoftwareRenderer, lodStillFits, lodView, rendererName, SOFTWARE_SEGMENT_BUDGET, tracksLod, type LodView } from './deck/lod';
import { TripsLayer } from '@deck.gl/geo-layers';
import {
  binaryPath,
  deviceColor,
  drawable,
  headsAt,
  pointColors,
  timeExtent,
  tracksBounds,
  type PointColoring,
  type Rgb,
  type TrackHead,
} from './deck/trackData';
import { LAST_POSITIONS_LAYER } from './LastPositions';
import { useMap } from './MapView';
import { ViewControl } from './ViewControl';

/**
 * Layers with the same kinds of binary data as the real ones, drawn from the start with nothing to see
 * (transparent): their shader programs are linked and their pipelines built while the map opens rather
 * than when the first track arrives (seconds on a software renderer, where the page waits for the GPU
 * at every frame).
 */
function warmupLayers(): Layer[] {
  const lonLat = new Float64Array([0, 0, 0.001, 0.001]);
  const positions = { getPosition: { value: lonLat, size: 2 } };
  const clear: [number, number, number, number] = [0, 0, 0, 0];
  return [
    new TripsLayer({
      id: 'warmup-trail',
      data: {
        length: 1,
        startIndices: new Uint32Array([0, 2]),
        attributes: { getPath: { value: lonLat, size: 2 }, getTimestamps: { value: new Float32Array([0, 1]), size: 1 } },
      } as never,
      _pathType: 'open',
      getColor: clear,
      widthUnits: 'pixels',
      jointRounded: true,
      capRounded: true,
      fadeTrail: false,
      currentTime: 2,
    }),
    new ScatterplotLayer({ id: 'warmup-dots', data: { length: 2, attributes: positions } as never, getFillColor: clear, radiusUnits: 'pixels', stroked: false }),
    new ScatterplotLayer({
      id: 'warmup-dots-colored',
      data: { length: 2, attributes: { ...positions, getFillColor: { value: new Uint8Array(8), size: 4 } } } as never,
      radiusUnits: 'pixels',
      stroked: false,
    }),
  ];
}

function segmentBudget(map: MapLibreMap): number {
  return isSoftwareRenderer(rendererName(map.getCanvas())) ? SOFTWARE_SEGMENT_BUDGET : GPU_SEGMENT_BUDGET;
}

function viewBounds(map: MapLibreMap): [number, number, number, number] {
  const b = map.getBounds();
  return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
}

export interface TracksOverlayProps {
  tracks: readonly DecodedTrack[];
  /** Each device's colour; devices not named take the palette by their place in `tracks`. */
  colors?: ReadonlyMap<string, Rgb>;
  /**
   * Replay: each track is drawn up to this moment (epoch ms), with a marker where each device is then.
   * Null or absent: whole tracks, with a marker at each one's last point.
   */
  time?: number | null;
  /** Draw each fix as a dot, coloured by device, precision grade or time; 'none' draws lines only. */
  points?: PointColoring | 'none';
  /** A fix to ring (e.g. the row chosen in a table beside the map). */
  highlight?: { imei: string; index: number } | null;
  /** Clicking a fix's dot (points must be drawn) names it. */
  onPick?: (imei: string, index: number) => void;
  /** Fit the view to the tracks whenever a different set of tracks arrives. Default true. */
  fit?: boolean;
  /** Draw invalid fixes too (those with a position on earth); by default only valid ones. */
  includeInvalid?: boolean;
  /** Offer the follow button (keep the replay's markers in view): maps with a replay. */
  followControl?: boolean;
}

const PICK_RADIUS = 4;

/**
 * An overlay: many devices' tracks drawn by deck.gl inside the MapLibre map (interleaved, one WebGL
 * context). Every layer reads the tracks' typed arrays directly (trackData.ts), so drawing a million
 * points builds no object per point; replaying changes only a uniform and a few markers per frame.
 */
export function TracksOverlay({
  tracks: decoded,
  colors,
  time = null,
  points = 'none',
  highlight = null,
  onPick,
  fit = true,
  includeInvalid = false,
  followControl = false,
}: TracksOverlayProps) {
  const map = useMap();
  const { t } = useTranslation();
  const [overlay] = useState(() => new MapboxOverlay({ interleaved: true, layers: [], pickingRadius: PICK_RADIUS }));
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  // Added before the layers effect below runs (effects run in order), removed with the overlay.
  useEffect(() => {
    map.addControl(overlay);
    return () => {
      // The map may be gone already (the view unmounts with its overlays).
      if (map.style && map.hasControl(overlay)) map.removeControl(overlay);
      else overlay.finalize();
    };
  }, [map, overlay]);

  // What can be drawn of each track (indices map back to the decoded track for picking).
  const tracks = useMemo(() => decoded.map((t) => drawable(t, includeInvalid)), [decoded, includeInvalid]);
  const colorOf = useMemo(() => (imei: string, i: number): Rgb => colors?.get(imei) ?? deviceColor(i), [colors]);
  const extent = useMemo(() => timeExtent(tracks), [tracks]);
  const base = extent?.[0] ?? 0;

  // Tracks beyond what the renderer draws smoothly are drawn at the detail the view needs (deck/lod.ts):
  // the view is followed while the map moves; the drawn points change only when the zoom bucket does or
  // the view leaves the region they were chosen for.
  const [budget] = useState(() => segmentBudget(map));
  const large = tracks.reduce((n, t) => n + t.count, 0) > budget;
  const [view, setView] = useState<LodView>(() => lodView(map.getZoom(), viewBounds(map)));
  useEffect(() => {
    if (!large) return;
    let frame = 0;
    const follow = (): void => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const zoom = map.getZoom();
        const bounds = viewBounds(map);
        setView((v) => (lodStillFits(v, zoom, bounds) ? v : lodView(zoom, bounds)));
      });
    };
    follow();
    map.on('move', follow);
    map.on('resize', follow);
    return () => {
      cancelAnimationFrame(frame);
      map.off('move', follow);
      map.off('resize', follow);
    };
  }, [map, large]);
  const drawn = useMemo(
    () => (large ? tracksLod(tracks, view, base, budget) : tracks.map((t) => ({ data: binaryPath(t, base), kept: null, lonLat: t.lonLat }))),
    [tracks, large, view, base, budget],
  );

  const pickable = onPick !== undefined;
  // The per-point colours are rebuilt only when the tracks or the colouring change, not per frame.
  const colored = useMemo(() => {
    if (points === 'none' && !pickable) return [];
    return tracks.map((track, i) => {
      const color = colorOf(track.imei, i);
      const fill = points === 'grade' || points === 'time' ? pointColors(track, points, color, extent ?? undefined) : null;
      return { track, color, fill };
    });
  }, [tracks, points, pickable, colorOf, extent]);
  const pointData = useMemo(
    () =>
      colored.map(({ track, color, fill }, i) => {
        const { kept, lonLat } = drawn[i]!;
        return { track, color, kept, lonLat, fill: fill && kept ? gatherColors(fill, kept) : fill };
      }),
    [colored, drawn],
  );

  const replaying = time !== null && extent !== null;
  const until = replaying ? time : (extent?.[1] ?? 0);
  const heads: TrackHead[] = useMemo(() => headsAt(tracks, until, colorOf), [tracks, until, colorOf]);

  useEffect(() => {
    const current = (until - base) / 1000;
    const layers: Layer[] = [...warmupLayers()];
    tracks.forEach((track, i) => {
      if (track.count < 2) return;
      const [r, g, b] = colorOf(track.imei, i);
      layers.push(
        new TripsLayer({
          id: `trail-${track.imei}`,
          data: drawn[i]!.data as never,
          _pathType: 'open',
          getColor: [r, g, b, 230],
          getWidth: 2.5,
          widthUnits: 'pixels',
          widthMinPixels: 1.5,
          jointRounded: true,
          capRounded: true,
          // The whole trail up to the moment (TripsLayer fades and cuts it after trailLength by default).
          fadeTrail: false,
          // A little past the moment so the segment into the current point is drawn whole.
          currentTime: replaying ? current + 1e-3 : Number.MAX_VALUE,
        }),
      );
    });
    // Dots are the whole track's: during a replay only the trails and markers move.
    if (!replaying) {
      for (const { track, color, kept, lonLat, fill } of pointData) {
        layers.push(
          new ScatterplotLayer({
            id: `points-${track.imei}`,
            data: {
              length: lonLat.length / 2,
              attributes: {
                getPosition: { value: lonLat, size: 2 },
                ...(fill ? { getFillColor: { value: fill, size: 4 } } : {}),
              },
            } as never,
            ...(fill ? {} : { getFillColor: [...color, 255] as [number, number, number, number] }),
            radiusUnits: 'pixels',
            getRadius: 3,
            radiusMinPixels: 2,
            stroked: false,
            pickable,
            onClick: (info: PickingInfo) => {
              if (info.index < 0) return;
              const index = kept ? kept[info.index]! : info.index;
              pick.current?.(track.imei, track.source ? track.source[index]! : index);
            },
            visible: points !== 'none' || pickable,
          }),
        );
      }
    }
    layers.push(
      new ScatterplotLayer<TrackHead>({
        id: 'track-heads',
        data: heads,
        getPosition: (h) => [h.lon, h.lat],
        getFillColor: (h) => [...h.color, 255],
        getLineColor: [255, 255, 255, 255],
        lineWidthUnits: 'pixels',
        getLineWidth: 2,
        stroked: true,
        radiusUnits: 'pixels',
        getRadius: 7,
      }),
    );
    if (highlight) {
      const track = decoded.find((t) => t.imei === highlight.imei);
      if (track && highlight.index >= 0 && highlight.index < track.count) {
        layers.push(
          new ScatterplotLayer({
            id: 'track-highlight',
            data: [[track.lonLat[highlight.index * 2]!, track.lonLat[highlight.index * 2 + 1]!]],
            getPosition: (d: [number, number]) => d,
            filled: false,
            stroked: true,
            getLineColor: [245, 34, 45, 255],
            lineWidthUnits: 'pixels',
            getLineWidth: 3,
            radiusUnits: 'pixels',
            getRadius: 9,
          }),
        );
      }
    }
    // Beneath the last positions when the map shows them (/map2d): a cluster or a device's dot and its
    // popup stay clickable over the tracks' ends.
    const beforeId = map.getLayer(LAST_POSITIONS_LAYER) ? LAST_POSITIONS_LAYER : undefined;
    overlay.setProps({ layers: beforeId ? layers.map((layer) => layer.clone({ beforeId } as Partial<Layer['props']>)) : layers });
    // What is drawn shows on the map's element (tests and support read it).
    const box = map.getContainer();
    box.dataset.tracks = tracks.map((t) => `${t.imei}:${t.count}`).join(',');
    box.dataset.drawnPoints = String(drawn.reduce((n, d) => n + d.lonLat.length / 2, 0));
  }, [overlay, map, tracks, drawn, decoded, colorOf, base, extent, until, replaying, heads, pointData, points, highlight, pickable]);

  // Show every track (a new set of tracks, or the fit button).
  const fitAll = useCallback((): boolean => {
    const bounds = tracksBounds(tracks);
    if (!bounds) return false;
    // Web Mercator ends at ±85.05°: a polar fix still fits.
    const lat = (v: number): number => Math.max(-85, Math.min(85, v));
    map.fitBounds(
      [
        [bounds[0], lat(bounds[1])],
        [bounds[2], lat(bounds[3])],
      ],
      { padding: 48, maxZoom: 14, duration: 0 },
    );
    return true;
  }, [map, tracks]);
  const fitted = useRef<readonly DecodedTrack[] | null>(null);
  useEffect(() => {
    if (!fit || fitted.current === decoded) return;
    fitted.current = decoded;
    fitAll();
  }, [decoded, fit, fitAll]);

  // The view buttons: fit, and (with a replay) follow.
  const [follow, setFollow] = useState(false);
  const [control] = useState(() => new ViewControl());
  useEffect(() => {
    control.setActions(
      () => {
        // Fitting is looking at everything: following would pull the view away again.
        setFollow(false);
        fitAll();
      },
      () => setFollow((on) => !on),
    );
  }, [control, fitAll]);
  useEffect(() => {
    map.addControl(control, 'top-right');
    return () => {
      if (map.style && map.hasControl(control)) map.removeControl(control);
    };
  }, [map, control]);
  useEffect(() => control.setLabels({ fit: t('map.view.fit'), follow: t('map.view.follow') }), [control, t]);
  useEffect(() => {
    control.setFollow(followControl, follow && followControl);
    control.setFitEnabled(tracks.some((tr) => tr.count > 0));
    map.getContainer().dataset.follow = follow && followControl ? '1' : '0';
  }, [control, map, follow, followControl, tracks]);

  // Following: the markers kept in view as the replay moves them (a pan when one nears the edge; a wider
  // view only when they no longer fit at this zoom).
  useEffect(() => {
    if (!follow || !followControl || heads.length === 0) return;
    keepInView(map, heads);
  }, [map, follow, followControl, heads]);

  return null;
}

/** Moves the view so that every head lies well inside it (the inner 80 %), changing the zoom only if it must. */
export function keepInView(map: MapLibreMap, heads: readonly { lon: number; lat: number }[]): void {
  const canvas = map.getCanvas();
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (width === 0 || height === 0) return;
  const margin = 0.1;
  const inside = heads.every((h) => {
    const p = map.project([h.lon, h.lat]);
    return p.x >= width * margin && p.x <= width * (1 - margin) && p.y >= height * margin && p.y <= height * (1 - margin);
  });
  if (inside) return;
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const h of heads) {
    w = Math.min(w, h.lon);
    e = Math.max(e, h.lon);
    s = Math.min(s, h.lat);
    n = Math.max(n, h.lat);
  }
  const a = map.project([w, n]);
  const b = map.project([e, s]);
  if (Math.abs(b.x - a.x) <= width * (1 - 2 * margin) && Math.abs(b.y - a.y) <= height * (1 - 2 * margin)) {
    map.jumpTo({ center: [(w + e) / 2, (s + n) / 2] });
  } else {
    map.fitBounds(
      [
        [w, Math.max(-85, s)],
        [e, Math.min(85, n)],
      ],
      { padding: Math.round(Math.min(width, height) * margin), maxZoom: map.getZoom(), duration: 0 },
    );
  }
}
