import { formatTime } from '@wildtrack/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useZone } from '../../../lib/session';

/**
 * A device's voltage over its recent fixes (GetObservedWork's Voltages), a small uPlot line: times on the
 * x axis in the user's zone (uPlot's own dates are the browser's), volts on the y axis.
 */
export function VoltageTrend({ points, height = 90 }: { points: readonly (readonly [number, number])[]; height?: number }) {
  const { t } = useTranslation();
  const zone = useZone();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el || points.length < 2) return;
    const xs = points.map((p) => p[0] / 1000);
    const ys = points.map((p) => p[1]);
    const day = (s: number) => formatTime(s * 1000, zone).slice(5, 10);
    const width = Math.max(200, Math.floor(el.clientWidth) || 360);
    const plot = new uPlot(
      {
        width,
        height,
        legend: { show: false },
        cursor: { show: true, points: { show: false }, drag: { x: false, y: false } },
        scales: { x: { time: true } },
        series: [{}, { label: t('deviceState.voltage'), stroke: '#0f766e', width: 1.5, fill: 'rgba(15, 118, 110, 0.08)', points: { show: false } }],
        axes: [
          { size: 24, font: '11px system-ui', values: (_u, splits) => splits.map(day), grid: { show: false } },
          { size: 58, font: '11px system-ui', values: (_u, splits) => splits.map((v) => `${v.toFixed(2)} V`), grid: { stroke: 'rgba(0,0,0,0.06)' } },
        ],
      },
      [xs, ys],
      el,
    );
    const resize = new ResizeObserver(() => {
      const w = Math.floor(el.clientWidth);
      if (w > 0 && w !== plot.width) plot.setSize({ width: Math.max(200, w), height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, height, zone, t]);

  if (points.length < 2) return null;
  const [first, last] = [points[0]!, points[points.length - 1]!];
  return (
    <div className="wt-voltage-trend" data-testid="voltage-trend" data-points={points.length}>
      <div
        ref={box}
        role="img"
        aria-label={t('deviceState.trendLabel', { from: first[1].toFixed(2), to: last[1].toFixed(2), count: points.length })}
      />
    </div>
  );
}
