import { useEffect, useRef } from 'react';
import { useMap } from '../../../map/MapView';
import type { ScreenBox } from '../model';

export type SelectTool = 'box' | 'lasso';

type Project = (lon: number, lat: number) => { x: number; y: number };

interface Props {
  /** The tool in use: a plain drag draws a box or a lasso (the map doesn't pan); null: Shift-drag draws a box. */
  tool: SelectTool | null;
  /** A box drawn, corners in the map's CSS pixels. */
  onBox: (box: ScreenBox, project: Project) => void;
  /** A lasso drawn: its outline in the map's CSS pixels. */
  onLasso: (outline: { x: number; y: number }[], project: Project) => void;
  /** Esc pressed while a tool is in use. */
  onCancel: () => void;
}

/** Drags shorter than this (px) are clicks, not shapes; a lasso adds a point every this many px. */
const MIN_DRAG = 4;

const SVG = 'http://www.w3.org/2000/svg';

/**
 * An overlay that draws nothing in React: it lets the user drag a box or a lasso over the map (MapLibre's
 * "select features within a box" pattern: the shape drawn over the canvas, box zoom off) and hands it to
 * `onBox` / `onLasso` with the map's projection. The container says `data-box-select="box|lasso|off"`.
 */
export function BoxSelect({ tool, onBox, onLasso, onCancel }: Props) {
  const map = useMap();
  const handlers = useRef({ onBox, onLasso, onCancel });
  useEffect(() => {
    handlers.current = { onBox, onLasso, onCancel };
  });

  useEffect(() => {
    const container = map.getCanvasContainer();
    const root = map.getContainer();
    // Shift-drag selects instead of zooming to the box.
    map.boxZoom.disable();
    if (tool) map.dragPan.disable();
    root.dataset.boxSelect = tool ?? 'off';
    container.style.cursor = tool ? 'crosshair' : '';

    let shape: SelectTool = 'box';
    let start: { x: number; y: number } | null = null;
    let path: { x: number; y: number }[] = [];
    let frame: HTMLDivElement | null = null;
    let outline: SVGSVGElement | null = null;
    const point = (e: PointerEvent) => {
      const rect = container.getBoundingClientRect();
      return { x: e.clientX - rect.left - container.clientLeft, y: e.clientY - rect.top - container.clientTop };
    };
    const clear = () => {
      frame?.remove();
      outline?.remove();
      frame = null;
      outline = null;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    const finish = (end: { x: number; y: number } | null) => {
      clear();
      const from = start;
      start = null;
      if (!from || !end) return;
      const project: Project = (lon, lat) => map.project([lon, lat]);
      if (shape === 'lasso') {
        path.push(end);
        if (path.length >= 3) handlers.current.onLasso(path, project);
        return;
      }
      if (Math.abs(end.x - from.x) + Math.abs(end.y - from.y) < MIN_DRAG) return;
      handlers.current.onBox({ x0: from.x, y0: from.y, x1: end.x, y1: end.y }, project);
    };
    function move(e: PointerEvent): void {
      if (!start) return;
      const p = point(e);
      if (shape === 'lasso') {
        const last = path[path.length - 1]!;
        if (Math.abs(p.x - last.x) + Math.abs(p.y - last.y) < MIN_DRAG) return;
        path.push(p);
        if (!outline) {
          outline = document.createElementNS(SVG, 'svg');
          outline.setAttribute('class', 'wt-lasso-select');
          outline.dataset.testid = 'lasso-select-outline';
          outline.appendChild(document.createElementNS(SVG, 'polygon'));
          container.appendChild(outline);
        }
        outline.firstElementChild!.setAttribute('points', path.map((q) => `${q.x},${q.y}`).join(' '));
        return;
      }
      if (!frame) {
        frame = document.createElement('div');
        frame.className = 'wt-box-select';
        frame.dataset.testid = 'box-select-frame';
        container.appendChild(frame);
      }
      frame.style.transform = `translate(${Math.min(start.x, p.x)}px, ${Math.min(start.y, p.y)}px)`;
      frame.style.width = `${Math.abs(p.x - start.x)}px`;
      frame.style.height = `${Math.abs(p.y - start.y)}px`;
    }
    function up(e: PointerEvent): void {
      finish(point(e));
    }
    const down = (e: PointerEvent) => {
      if (e.button !== 0 || !(tool || e.shiftKey)) return;
      e.preventDefault();
      e.stopPropagation();
      shape = tool ?? 'box';
      start = point(e);
      path = [start];
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (start) {
        start = null;
        path = [];
        clear();
      } else if (tool) handlers.current.onCancel();
    };
    container.addEventListener('pointerdown', down, true);
    window.addEventListener('keydown', key);
    return () => {
      start = null;
      clear();
      container.removeEventListener('pointerdown', down, true);
      window.removeEventListener('keydown', key);
      container.style.cursor = '';
      delete root.dataset.boxSelect;
      if (tool) map.dragPan.enable();
    };
  }, [map, tool]);

  return null;
}
