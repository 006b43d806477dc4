import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import type { AccelerationBurst } from '@wildtrack/contract';
import { Button, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { setAccelerationMoment } from './markStore';

const COLORS = { X: '#dc2626', Y: '#16a34a', Z: '#2563eb', ODBA: '#0f172a' } as const;

/** The burst's columns for uPlot: seconds from its start, X, Y, Z and ODBA in g (null where not sampled). */
function columnsOf(burst: AccelerationBurst): uPlot.AlignedData {
  const s = burst.Samples;
  return [s.map((_, i) => i / (burst.Frequency || 1)), s.map((p) => p.X), s.map((p) => p.Y), s.map((p) => p.Z), s.map((p) => p.ODBA)];
}

/**
 * One burst over its samples (issue 13 item 3): calibrated X, Y, Z and ODBA in g against seconds from
 * its start. Hovering a sample, or playing the burst, points the /track map at where the animal was then
 * (markStore).
 */
export function BurstViewer({ burst }: { burst: AccelerationBurst }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [playing, setPlaying] = useState(false);
  const [index, setIndex] = useState<number | null>(null);
  const start = Number(burst.Id);
  const hz = burst.Frequency || 1;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(280, Math.floor(el.clientWidth) || 560);
    const u = new uPlot(
      {
        width,
        height: 220,
        legend: { show: true, live: true },
        cursor: { drag: { x: true, y: false } },
        scales: { x: { time: false } },
        series: [
          { label: t('acceleration.viewer.seconds'), value: (_u, v) => (v == null ? '' : `${v.toFixed(2)} s`) },
          { label: 'X', stroke: COLORS.X, width: 1, value: (_u, v) => (v == null ? '' : `${v.toFixed(3)} g`) },
          { label: 'Y', stroke: COLORS.Y, width: 1, value: (_u, v) => (v == null ? '' : `${v.toFixed(3)} g`) },
          { label: 'Z', stroke: COLORS.Z, width: 1, value: (_u, v) => (v == null ? '' : `${v.toFixed(3)} g`) },
          { label: 'ODBA', stroke: COLORS.ODBA, width: 2, value: (_u, v) => (v == null ? '' : `${v.toFixed(3)} g`) },
        ],
        axes: [
          { label: t('acceleration.viewer.seconds'), size: 36, font: '11px system-ui', labelFont: '11px system-ui' },
          { label: t('acceleration.viewer.g'), size: 50, font: '11px system-ui', labelFont: '11px system-ui', grid: { stroke: 'rgba(0,0,0,0.06)' } },
        ],
        hooks: {
          setCursor: [
            (u) => {
              const i = u.cursor.idx;
              setIndex(i ?? null);
              setAccelerationMoment(i == null ? null : start + Math.round((i * 1000) / hz), 'viewer');
            },
          ],
        },
      },
      columnsOf(burst),
      el,
    );
    plot.current = u;
    const resize = new ResizeObserver(() => {
      const w = Math.floor(el.clientWidth);
      if (w > 0 && w !== u.width) u.setSize({ width: Math.max(280, w), height: 220 });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
      setAccelerationMoment(null, 'viewer');
    };
  }, [burst, t, start, hz]);

  // Playing walks the cursor over the samples in real time (sped up for long bursts: at most 10 s).
  useEffect(() => {
    if (!playing) return;
    const u = plot.current;
    const n = burst.Samples.length;
    if (!u || n === 0) return;
    const duration = Math.min(10_000, (n / hz) * 1000);
    const began = performance.now();
    let frame = 0;
    const step = (now: number) => {
      const i = Math.min(n - 1, Math.floor(((now - began) / duration) * n));
      const x = u.valToPos(u.data[0][i]!, 'x');
      const v = u.data[4]?.[i];
      u.setCursor({ left: x, top: typeof v === 'number' ? u.valToPos(v, 'y') : 0 });
      if (i >= n - 1) {
        setPlaying(false);
        return;
      }
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [playing, burst, hz]);

  const sample = index === null ? null : burst.Samples[index];
  return (
    <div className="wt-acc-viewer" data-testid="burst-viewer" data-burst={burst.Id} data-samples={burst.Samples.length} data-index={index ?? ''}>
      <Space className="wt-acc-viewer-bar" wrap>
        <Typography.Text strong>{t('acceleration.viewer.title', { time: burst.Time })}</Typography.Text>
        <Typography.Text type="secondary" data-testid="burst-odba">
          {t('acceleration.viewer.meanOdba', { value: burst.MeanODBA.toFixed(3) })}
        </Typography.Text>
        <Button size="small" icon={playing ? <PauseOutlined /> : <CaretRightOutlined />} data-testid="burst-play" onClick={() => setPlaying(!playing)}>
          {playing ? t('acceleration.viewer.pause') : t('acceleration.viewer.play')}
        </Button>
        {sample ? (
          <Typography.Text className="wt-mono" data-testid="burst-sample">
            {sample.Time} · ODBA {sample.ODBA.toFixed(3)} g
          </Typography.Text>
        ) : null}
      </Space>
      <div ref={box} role="img" aria-label={t('acceleration.viewer.label', { count: burst.Samples.length, time: burst.Time })} />
    </div>
  );
}
