import { useEffect, useRef } from 'react';
import {
  TerraDraw,
  TerraDrawCircleMode,
  TerraDrawPolygonMode,
  TerraDrawSelectMode,
  ValidateNotSelfIntersecting,
  type GeoJSONStoreFeatures,
} from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { useMap } from '../../../map/MapView';
import { closeRing, distanceMeters, openRing } from '@wildtrack/contract';
import { circleRing, type FenceShape, type LngLat } from '../geometry';

export type DrawTool = 'polygon' | 'circle';

interface Props {
  /** Which shape is being edited: a new key clears the drawing and loads `shape` (null: nothing drawn yet). */
  editKey: string;
  shape: FenceShape | null;
  /** The tool for a new shape; null while there is nothing to draw (editing is always on for a drawn shape). */
  tool: DrawTool | null;
  /** A finished shape, after drawing it and after each edit of its vertices. */
  onShape: (shape: FenceShape) => void;
  /** The shape as it is while being drawn (the cursor's vertex included), for the live area. */
  onDrawing: (shape: FenceShape | null) => void;
  /** Whether the editing is allowed (an experience device's fence is read-only). */
  readOnly?: boolean;
}

const COLOR = '#d4380d';

/** A terra-draw feature as a fence shape: a circle by its centre and radius, a polygon by its ring. */
export function shapeOfFeature(feature: GeoJSONStoreFeatures): FenceShape | null {
  if (feature.geometry.type !== 'Polygon') return null;
  const ring = openRing(feature.geometry.coordinates[0] as LngLat[]);
  if (feature.properties.mode === 'circle') {
    if (ring.length < 3) return null;
    const center: LngLat = [ring.reduce((s, p) => s + p[0], 0) / ring.length, ring.reduce((s, p) => s + p[1], 0) / ring.length];
    const radius = ring.reduce((s, p) => s + distanceMeters(center, p), 0) / ring.length;
    return { Type: 'Circle', Center: [round(center[0]), round(center[1])], Radius: Math.round(radius * 10) / 10 };
  }
  return { Type: 'Polygon', Coordinates: closeRing(ring) };
}

function round(x: number): number {
  return Math.round(x * 1e7) / 1e7;
}

function featureOfShape(shape: FenceShape): GeoJSONStoreFeatures {
  if (shape.Type === 'Circle') {
    return {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [circleRing(shape.Center, shape.Radius).map((p) => [p[0], p[1]])] },
      properties: { mode: 'circle', radiusKilometers: shape.Radius / 1000 },
    };
  }
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [closeRing(shape.Coordinates).map((p) => [round(p[0]), round(p[1])])] },
    properties: { mode: 'polygon' },
  };
}

/**
 * The drawing tool on the fence map (§4 Geofence drawing), terra-draw on MapLibre: a polygon is drawn
 * click by click and finished with a double-click (the second click lands on the last vertex, which
 * closes it; the map's own double-click zoom is off while a fence is edited), a circle by its centre and a second
 * click. A finished shape stays selected: its vertices can be dragged, a midpoint dragged adds one, and a
 * circle is resized from its edge. A self-intersecting polygon is refused as it is drawn or edited.
 * Renders nothing; the shape goes out through `onShape`.
 */
export function FenceDraw({ editKey, shape, tool, onShape, onDrawing, readOnly = false }: Props) {
  const map = useMap();
  const drawRef = useRef<TerraDraw | null>(null);
  const callbacks = useRef({ onShape, onDrawing });
  useEffect(() => {
    callbacks.current = { onShape, onDrawing };
  });
  const loaded = useRef<string | null>(null);

  useEffect(() => {
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map, coordinatePrecision: 7 }),
      modes: [
        new TerraDrawPolygonMode({
          validation: (feature, { updateType }) => (updateType === 'finish' || updateType === 'commit' ? ValidateNotSelfIntersecting(feature) : { valid: true }),
          styles: { fillColor: COLOR, fillOpacity: 0.15, outlineColor: COLOR, outlineWidth: 2, closingPointColor: '#ffffff', closingPointOutlineColor: COLOR, closingPointWidth: 5, closingPointOutlineWidth: 2 },
        }),
        new TerraDrawCircleMode({ styles: { fillColor: COLOR, fillOpacity: 0.15, outlineColor: COLOR, outlineWidth: 2 } }),
        new TerraDrawSelectMode({
          flags: {
            polygon: {
              feature: {
                draggable: true,
                validation: (feature) => ValidateNotSelfIntersecting(feature),
                coordinates: { midpoints: true, draggable: true, deletable: true },
              },
            },
            circle: { feature: { draggable: true, coordinates: { resizable: 'center-fixed' } } },
          },
          styles: {
            selectedPolygonColor: COLOR,
            selectedPolygonFillOpacity: 0.2,
            selectedPolygonOutlineColor: COLOR,
            selectedPolygonOutlineWidth: 2,
            selectionPointColor: '#ffffff',
            selectionPointOutlineColor: COLOR,
            selectionPointWidth: 5,
            selectionPointOutlineWidth: 2,
            midPointColor: COLOR,
            midPointOutlineColor: '#ffffff',
            midPointWidth: 3,
          },
        }),
      ],
    });
    draw.start();
    drawRef.current = draw;
    const container = map.getContainer();
    const report = (id: string | number) => {
      const feature = draw.getSnapshotFeature(id);
      return feature ? shapeOfFeature(feature) : null;
    };
    draw.on('finish', (id) => {
      const shape = report(id);
      if (!shape) return;
      callbacks.current.onDrawing(null);
      callbacks.current.onShape(shape);
      container.dataset.fenceDrawing = '0';
      // the shape stays selected for editing its vertices
      draw.setMode('select');
      draw.selectFeature(id);
    });
    draw.on('change', (ids, type) => {
      if (type === 'delete') return;
      for (const id of ids) {
        const feature = draw.getSnapshotFeature(id);
        if (!feature || feature.geometry.type !== 'Polygon') continue;
        if (feature.properties.currentlyDrawing) {
          container.dataset.fenceDrawing = '1';
          callbacks.current.onDrawing(shapeOfFeature(feature));
        }
      }
    });
    // a vertex dragged, added or removed in the select mode: the edited shape goes out when the drag ends
    const onUp = () => {
      if (draw.getMode() !== 'select') return;
      const feature = draw.getSnapshot().find((f) => f.geometry.type === 'Polygon' && !f.properties.currentlyDrawing);
      const shape = feature ? shapeOfFeature(feature) : null;
      if (shape) callbacks.current.onShape(shape);
    };
    container.addEventListener('pointerup', onUp);
    return () => {
      container.removeEventListener('pointerup', onUp);
      drawRef.current = null;
      loaded.current = null;
      draw.stop();
      map.doubleClickZoom.enable();
    };
  }, [map]);

  // A new shape to edit (another fence chosen, or a new one): the drawing starts again from it.
  useEffect(() => {
    const draw = drawRef.current;
    if (!draw || loaded.current === editKey) return;
    loaded.current = editKey;
    draw.setMode('select');
    draw.clear();
    // a read-only fence is drawn by the fences' layer only: nothing of it can be picked up here
    if (shape && !readOnly) {
      const [result] = draw.addFeatures([featureOfShape(shape)]);
      if (result?.valid) draw.selectFeature(result.id!);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the shape is read when the key changes only
  }, [editKey]);

  // The tool: drawing a new shape while there is none; otherwise selecting (editing) the one drawn.
  useEffect(() => {
    const draw = drawRef.current;
    if (!draw) return;
    const hasShape = draw.getSnapshot().some((f) => f.geometry.type === 'Polygon' && !f.properties.currentlyDrawing);
    const mode = readOnly || hasShape || !tool ? 'select' : tool;
    if (draw.getMode() !== mode) draw.setMode(mode);
    // off for the whole editing, not only while drawing: the double-click that finishes a polygon would
    // otherwise zoom the map once the tool has switched to editing under it
    if (readOnly) map.doubleClickZoom.enable();
    else map.doubleClickZoom.disable();
    map.getContainer().dataset.fenceTool = mode;
  }, [tool, editKey, shape, readOnly, map]);

  return null;
}
