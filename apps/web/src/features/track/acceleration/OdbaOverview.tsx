import { formatTime } from '@wildtrack/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { setAccelerationMoment } from './markStore';
import type { OdbaEnvelope } from './model';

/**
 * ODBA over the whole range: per pixel-wide bucket the mean and the peak of the samples' ODBA (the worker
 * summarises a million samples; the chart never gets more points than buckets). Hovering a moment marks
 * on the map where the animal was then.
 */
export function OdbaOverview({ envelope, samples, zone }: { envelope: OdbaEnvelope; samples: number; zone: string }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el || envelope.x.length === 0) return;
    const width = Math.max(280, Math.floor(el.clientWidth) || 560);
    const label = (s: number) => formatTime(s * 1000, zone).slice(5, 16);
    const u = new uPlot(
      {
        width,
        height: 150,
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        scales: { x: { time: false } },
        series: [
          {},
          { label: t('acceleration.overview.peak'), stroke: 'rgba(15, 118, 110, 0.35)', fill: 'rgba(15, 118, 110, 0.12)', width: 1 },
          { label: t('acceleration.overview.mean'), stroke: '#0f766e', width: 1.5 },
        ],
        axes: [
          { size: 28, font: '11px system-ui', values: (_u, splits) => splits.map(label), grid: { show: false } },
          { size: 46, font: '11px system-ui', values: (_u, splits) => splits.map((v) => `${v.toFixed(1)} g`), grid: { stroke: 'rgba(0,0,0,0.06)' } },
        ],
        hooks: {
          setCursor: [
            (p) => {
              const i = p.cursor.idx;
              setAccelerationMoment(i == null ? null : Math.round(envelope.x[i]! * 1000), 'overview');
            },
          ],
        },
      },
      [envelope.x, envelope.max, envelope.mean] as unknown as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => {
      const w = Math.floor(el.clientWidth);
      if (w > 0 && w !== u.width) u.setSize({ width: Math.max(280, w), height: 150 });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      setAccelerationMoment(null, 'overview');
    };
  }, [envelope, t, zone]);

  return (
    <div className="wt-acc-overview" data-testid="odba-overview" data-points={envelope.x.length} data-samples={samples}>
      <div ref={box} role="img" aria-label={t('acceleration.overview.label', { count: samples, points: envelope.x.length })} />
    </div>
  );
}
