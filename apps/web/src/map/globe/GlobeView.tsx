import { Cartesian3, CesiumWidget, EllipsoidTerrainProvider, ImageryLayer, TileMapServiceImageryProvider } from 'cesium';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@wildtrack/contract';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { NATURAL_EARTH_URL } from './cesium';
import { heightForZoom } from './trackLine';

/**
 * The one globe view (CONVENTIONS 10, as MapView is for the flat map): it owns the CesiumJS widget;
 * overlays (imagery, tracks) are children that add their own layers and primitives through
 * `useGlobe()` and render nothing. The lean CesiumWidget, not the Viewer: the Viewer's extra widgets
 * (geocoder, layer picker, timeline) are either ion services or replaced by the page's own controls.
 */
const GlobeContext = createContext<CesiumWidget | null>(null);

export function useGlobe(): CesiumWidget {
  const globe = useContext(GlobeContext);
  if (!globe) throw new Error('useGlobe() outside a <GlobeView>');
  return globe;
}

function webglAvailable(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

interface Props {
  center?: readonly [number, number];
  zoom?: number;
  className?: string;
  /** Shown instead of the globe when the browser can't draw one (no WebGL, a failed context). */
  fallback: ReactNode;
  children?: ReactNode;
}

export default function GlobeView({ center = MAP_DEFAULT_CENTER, zoom = MAP_DEFAULT_ZOOM, className, fallback, children }: Props) {
  const container = useRef<HTMLDivElement | null>(null);
  // The widget outlives a hidden (kept-alive) page: paused, not destroyed, so coming back is instant.
  const holder = useRef<CesiumWidget | null>(null);
  // While paused, a slow look whether the element has left the document: a page hidden by the keep-alive
  // layout is unmounted later without its effects running again (sign-out, say).
  const watch = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const [globe, setGlobe] = useState<CesiumWidget | null>(null);
  const [failed, setFailed] = useState(() => !webglAvailable());
  const initial = useRef({ center, zoom });

  useEffect(() => {
    const box = container.current;
    if (!box || failed) return;
    clearInterval(watch.current);
    let widget = holder.current;
    if (widget && !widget.isDestroyed()) {
      // Back from a hidden page: the same widget, its camera where the user left it.
      widget.useDefaultRenderLoop = true;
      widget.scene.requestRender();
    } else {
      // A browser that announces WebGL but can't give Cesium a working context throws here: the page's
      // MapBoundary shows the fallback.
      widget = createWidget(box, initial.current);
      holder.current = widget;
      const created = widget;
      created.scene.renderError.addEventListener(() => setFailed(true));
      // Overlays join once the globe has drawn its first frame.
      const announce = (): void => {
        created.scene.postRender.removeEventListener(announce);
        setGlobe(created);
      };
      created.scene.postRender.addEventListener(announce);
    }
    box.dataset.render = 'on';
    const current = widget;
    return () => {
      // Hidden by the keep-alive layout (the element stays in the document) or unmounted (it leaves):
      // rendering stops at once; only a globe whose element has left is destroyed.
      current.useDefaultRenderLoop = false;
      box.dataset.render = 'paused';
      const destroyIfGone = (): void => {
        if (box.isConnected || current.isDestroyed()) return;
        clearInterval(watch.current);
        if (holder.current === current) holder.current = null;
        current.destroy();
      };
      setTimeout(destroyIfGone, 0);
      watch.current = setInterval(destroyIfGone, 10_000);
    };
  }, [failed]);

  if (failed) return <div className={className}>{fallback}</div>;
  return (
    <div className={className} ref={container} data-testid="globe">
      {globe ? <GlobeContext.Provider value={globe}>{children}</GlobeContext.Provider> : null}
    </div>
  );
}

function createWidget(box: HTMLDivElement, view: { center: readonly [number, number]; zoom: number }): CesiumWidget {
  box.dataset.state = 'loading';
  box.dataset.imagery = 'offline';
  const baseLayer = ImageryLayer.fromProviderAsync(TileMapServiceImageryProvider.fromUrl(NATURAL_EARTH_URL()));
  baseLayer.readyEvent.addEventListener(() => {
    box.dataset.state = 'ready';
  });
  baseLayer.errorEvent.addEventListener((error: unknown) => {
    box.dataset.state = 'error';
    box.dataset.error = error instanceof Error ? error.message : String(error);
  });
  const widget = new CesiumWidget(box, {
    baseLayer,
    terrainProvider: new EllipsoidTerrainProvider(),
    // A frame only when something changed (camera, data, replay): an idle globe costs no CPU.
    requestRenderMode: true,
    maximumRenderTimeChange: Infinity,
    showRenderLoopErrors: false,
    scene3DOnly: true,
    // The only translucent things are the tracks' faint parts: plain blending, not OIT's extra passes.
    orderIndependentTranslucency: false,
  });
  const scene = widget.scene;
  scene.globe.tileLoadProgressEvent.addEventListener((queued: number) => {
    box.dataset.tiles = queued === 0 ? 'loaded' : 'loading';
  });
  const height = heightForZoom(view.zoom, box.clientHeight || 700, Math.PI / 3);
  widget.camera.setView({ destination: Cartesian3.fromDegrees(view.center[0], view.center[1], height) });
  return widget;
}
