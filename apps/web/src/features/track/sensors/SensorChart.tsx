import { formatTime, type SensorKindName, type SensorSeries } from '@wildtrack/contract';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useKindTexts } from '../../../i18n/sensor-kinds';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { KIND_VALUES } from './kinds';

export interface SensorChartProps {
  kind: SensorKindName;
  series: SensorSeries | undefined;
  /** The x range shown, epoch ms: the visible range asked for (the whole range until zoomed). */
  from: number;
  to: number;
  /** The whole range, epoch ms: zooming and panning stay inside it. */
  min: number;
  max: number;
  zone: string;
  height?: number;
  /** The user zoomed or panned to [from, to] (ms), or reset the zoom (null). */
  onView: (view: { from: number; to: number } | null) => void;
  /** The plotting width changed (px). */
  onWidth: (width: number) => void;
}

const AXIS_FONT = '11px system-ui';
/** A wheel step zooms by this factor around the pointer. */
const WHEEL_ZOOM = 1.25;
/** Narrowest view: a minute. */
const MIN_SPAN_MS = 60_000;

/** Axis texts of a time axis in the user's zone (uPlot's own dates are the browser's), as fine as the splits need. */
function timeTexts(splits: number[], zone: string): string[] {
  const step = splits.length > 1 ? splits[1]! - splits[0]! : 0;
  return splits.map((s) => {
    const text = formatTime(s * 1000, zone);
    // Within a day: the time, with the date on a second line (one line of both overlaps at an hour's spacing).
    return step >= 86_400 ? text.slice(5, 10) : step >= 60 ? `${text.slice(11, 16)}\n${text.slice(5, 10)}` : `${text.slice(11, 19)}\n${text.slice(5, 10)}`;
  });
}

/** Clamps a view [from, to] into [min, max], keeping its span (at least MIN_SPAN_MS). */
export function clampView(from: number, to: number, min: number, max: number): { from: number; to: number } {
  const span = Math.min(max - min, Math.max(MIN_SPAN_MS, to - from));
  let a = from;
  if (a < min) a = min;
  if (a + span > max) a = max - span;
  return { from: Math.round(a), to: Math.round(a + span) };
}

/**
 * uPlot's columns from a series: x in seconds, then per value its mean, and for an envelope its max and
 * min (a band between them). An envelope's empty buckets (a gap longer than 1.5 buckets) become a null so
 * that the line breaks there instead of bridging days without records.
 */
function columnsOf(s: SensorSeries): uPlot.AlignedData {
  const n = s.count;
  const envelope = s.bucketMs > 0;
  const x: number[] = [];
  const cols: (number | null)[][] = Array.from({ length: s.values * (envelope ? 3 : 1) }, () => []);
  for (let i = 0; i < n; i++) {
    if (envelope && i > 0 && s.times[i]! - s.times[i - 1]! > 1.5 * s.bucketMs) {
      x.push((s.times[i - 1]! + s.bucketMs) / 1000);
      for (const c of cols) c.push(null);
    }
    x.push(s.times[i]! / 1000);
    for (let k = 0; k < s.values; k++) {
      const at = k * n + i;
      const value = (v: number) => (Number.isFinite(v) ? v : null);
      if (envelope) {
        cols[3 * k]!.push(value(s.mean[at]!));
        cols[3 * k + 1]!.push(value(s.max[at]!));
        cols[3 * k + 2]!.push(value(s.min[at]!));
      } else cols[k]!.push(value(s.mean[at]!));
    }
  }
  return [x, ...cols];
}

const alpha = (hex: string, a: number) => `${hex}${Math.round(a * 255).toString(16).padStart(2, '0')}`;

/**
 * A kind's series as a uPlot chart: a line per value (red and infrared together; magnetism's X, Y, Z on
 * the left axis in µT and its angle on the right in degrees), an envelope drawn as its mean with the
 * min-max band. Drag across to zoom in, the wheel zooms around the pointer, Shift+wheel (or a sideways
 * wheel) pans, a double click shows the whole range again; each asks the server for the visible range
 * again (onView), never all points pushed to the chart.
 */
export function SensorChart({ kind, series, from, to, min, max, zone, height = 260, onView, onWidth }: SensorChartProps) {
  const { t } = useTranslation();
  const texts = useKindTexts();
  const { lang } = texts;
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const envelope = (series?.bucketMs ?? 0) > 0;
  // The latest props for uPlot's handlers (made once per chart).
  const latest = useRef({ from, to, min, max, onView, onWidth });
  useLayoutEffect(() => {
    latest.current = { from, to, min, max, onView, onWidth };
  });

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const values = KIND_VALUES[kind];
    const unitOf = (axis: 0 | 1) => values.find((v) => v.axis === axis)!.unit;
    const label = (axis: 0 | 1) => {
      const fields = values.filter((v) => v.axis === axis);
      const name = kind === 'magnetism' && axis === 0 ? t('trackSensors.field.XYZ') : fields.length > 1 ? texts.kind(kind, 'trackSensors.kind') : fields[0]!.label[lang];
      return `${name} (${unitOf(axis)[lang]})`;
    };
    const hasRight = values.some((v) => v.axis === 1);
    const seriesOpts: uPlot.Series[] = [{ label: t('trackSensors.time'), value: (_u, v) => (v == null ? '' : formatTime(v * 1000, zone)) }];
    const bands: uPlot.Band[] = [];
    for (const v of values) {
      const scale = v.axis === 0 ? 'y' : 'y2';
      const unit = v.unit[lang];
      const name = v.label[lang];
      const fmt = (_u: uPlot, x: number | null) => (x == null ? '–' : `${Number(x.toFixed(2))} ${unit}`);
      seriesOpts.push({
        label: envelope ? t('trackSensors.mean', { name }) : name,
        scale,
        stroke: v.color,
        width: 1.5,
        value: fmt,
        spanGaps: !envelope,
        ...(v.dots ? { paths: () => null, points: { show: true, size: 3, fill: v.color } } : { points: { show: !envelope, size: 3 } }),
      });
      if (envelope) {
        const at = seriesOpts.length;
        seriesOpts.push({ label: t('trackSensors.max', { name }), scale, stroke: alpha(v.color, 0.35), width: 0.5, points: { show: false }, value: fmt });
        seriesOpts.push({ label: t('trackSensors.min', { name }), scale, stroke: alpha(v.color, 0.35), width: 0.5, points: { show: false }, value: fmt });
        bands.push({ series: [at, at + 1], fill: alpha(v.color, 0.15) });
      }
    }
    const width = Math.max(240, Math.floor(el.clientWidth) || 600);
    const u = new uPlot(
      {
        width,
        height,
        legend: { show: true, live: true },
        cursor: { drag: { x: true, y: false, setScale: false }, bind: { dblclick: () => () => null } },
        scales: { x: { time: true }, y: { auto: true }, ...(hasRight ? { y2: { auto: true } } : {}) },
        series: seriesOpts,
        bands,
        axes: [
          { font: AXIS_FONT, size: 44, space: 60, values: (_u, splits) => timeTexts(splits, zone), grid: { stroke: 'rgba(0,0,0,0.06)' } },
          { scale: 'y', label: label(0), labelFont: AXIS_FONT, font: AXIS_FONT, size: 56, grid: { stroke: 'rgba(0,0,0,0.06)' } },
          ...(hasRight ? [{ scale: 'y2', side: 1 as const, label: label(1), labelFont: AXIS_FONT, font: AXIS_FONT, size: 56, grid: { show: false } }] : []),
        ],
        hooks: {
          setSelect: [
            (p) => {
              if (p.select.width < 4) return;
              const a = p.posToVal(p.select.left, 'x') * 1000;
              const b = p.posToVal(p.select.left + p.select.width, 'x') * 1000;
              p.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
              const { min: lo, max: hi } = latest.current;
              const view = clampView(a, b, lo, hi);
              p.setScale('x', { min: view.from / 1000, max: view.to / 1000 });
              latest.current.onView(view);
            },
          ],
        },
      },
      [[], ...seriesOpts.slice(1).map(() => [])],
      el,
    );
    plot.current = u;

    let wheelTimer: ReturnType<typeof setTimeout> | undefined;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { min: lo, max: hi } = latest.current;
      const sMin = (u.scales.x?.min ?? latest.current.from / 1000) * 1000;
      const sMax = (u.scales.x?.max ?? latest.current.to / 1000) * 1000;
      const span = sMax - sMin;
      let view: { from: number; to: number };
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        const shift = (Math.sign(e.deltaX || e.deltaY) * span) / 5;
        view = clampView(sMin + shift, sMax + shift, lo, hi);
      } else {
        const at = u.posToVal(e.offsetX, 'x') * 1000;
        const factor = e.deltaY < 0 ? 1 / WHEEL_ZOOM : WHEEL_ZOOM;
        view = clampView(at - (at - sMin) * factor, at + (sMax - at) * factor, lo, hi);
      }
      u.setScale('x', { min: view.from / 1000, max: view.to / 1000 });
      clearTimeout(wheelTimer);
      // Asked once the wheel rests, not at every notch.
      wheelTimer = setTimeout(() => latest.current.onView(view.from <= lo && view.to >= hi ? null : view), 250);
    };
    const onDoubleClick = () => latest.current.onView(null);
    u.over.addEventListener('wheel', onWheel, { passive: false });
    u.over.addEventListener('dblclick', onDoubleClick);

    const resize = new ResizeObserver(() => {
      const w = Math.floor(el.clientWidth);
      if (w > 0 && w !== u.width) u.setSize({ width: Math.max(240, w), height });
      latest.current.onWidth(Math.round(u.bbox.width / (window.devicePixelRatio || 1)));
    });
    resize.observe(el);
    latest.current.onWidth(Math.round(u.bbox.width / (window.devicePixelRatio || 1)));
    return () => {
      clearTimeout(wheelTimer);
      resize.disconnect();
      u.over.removeEventListener('wheel', onWheel);
      u.over.removeEventListener('dblclick', onDoubleClick);
      u.destroy();
      plot.current = null;
    };
  }, [kind, envelope, zone, height, t, texts, lang]);

  // New data (a new range, or the visible range asked again): drawn with the x scale at the asked range.
  useEffect(() => {
    const u = plot.current;
    if (!u || !series) return;
    u.batch(() => {
      u.setData(columnsOf(series), true);
      u.setScale('x', { min: from / 1000, max: to / 1000 });
    });
  }, [series, envelope, from, to]);

  return (
    <div
      ref={box}
      className="wt-sensor-chart-plot"
      role="img"
      aria-label={t('trackSensors.chartLabel', { kind: texts.kind(kind, 'trackSensors.kind'), from: formatTime(from, zone), to: formatTime(to, zone) })}
    />
  );
}
