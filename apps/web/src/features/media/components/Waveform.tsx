import { Alert, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { envelope, spectrogram } from './spectrum';

const WIDTH = 640;
const WAVE_HEIGHT = 72;
const SPEC_HEIGHT = 128;
/** The spectrogram's dB range: below FLOOR is drawn as silence. */
const FLOOR = -90;

/** The WAV decoded by the browser (Web Audio), first channel. */
async function decode(url: string, signal: AbortSignal): Promise<{ samples: Float32Array; rate: number }> {
  const res = await fetch(url, { credentials: 'same-origin', signal });
  if (!res.ok) throw new Error(String(res.status));
  const bytes = await res.arrayBuffer();
  const Ctx = window.OfflineAudioContext;
  // The context's own rate does not matter: decodeAudioData resamples to it, so ask for the file's rate.
  const rate = new DataView(bytes).getUint32(24, true) || 16_000;
  const audio = await new Ctx(1, 1, rate).decodeAudioData(bytes);
  return { samples: audio.getChannelData(0), rate: audio.sampleRate };
}

function colour(db: number): string {
  const v = Math.max(0, Math.min(1, (db - FLOOR) / -FLOOR));
  // dark blue → teal → yellow
  const r = Math.round(255 * Math.max(0, v * 1.6 - 0.6));
  const g = Math.round(255 * Math.min(1, v * 1.2));
  const b = Math.round(255 * Math.max(0, 0.55 - v * 0.55) + 40 * v);
  return `rgb(${r},${g},${b})`;
}

/** A recording's waveform and spectrogram, computed in the browser from the WAV it plays. */
export function Waveform({ url }: { url: string }) {
  const { t } = useTranslation();
  const wave = useRef<HTMLCanvasElement | null>(null);
  const spec = useRef<HTMLCanvasElement | null>(null);
  const decoded = useQuery({ queryKey: ['media', 'wav', url], queryFn: ({ signal }) => decode(url, signal), staleTime: Infinity, gcTime: 60_000, retry: false });

  useEffect(() => {
    const data = decoded.data;
    if (!data || !wave.current || !spec.current) return;
    const w = wave.current.getContext('2d');
    const s = spec.current.getContext('2d');
    if (!w || !s) return;
    const { min, max } = envelope(data.samples, WIDTH);
    w.clearRect(0, 0, WIDTH, WAVE_HEIGHT);
    w.fillStyle = '#0f766e';
    const mid = WAVE_HEIGHT / 2;
    for (let x = 0; x < WIDTH; x++) w.fillRect(x, mid - max[x]! * mid, 1, Math.max(1, (max[x]! - min[x]!) * mid));
    const frames = spectrogram(data.samples, WIDTH / 2);
    const bins = frames[0]?.length ?? 1;
    for (let c = 0; c < frames.length; c++) {
      for (let y = 0; y < SPEC_HEIGHT; y++) {
        const k = Math.floor(((SPEC_HEIGHT - 1 - y) / SPEC_HEIGHT) * bins);
        s.fillStyle = colour(frames[c]![k]!);
        s.fillRect(c * 2, y, 2, 1);
      }
    }
  }, [decoded.data]);

  if (decoded.isError) return <Alert type="warning" showIcon title={t('media.waveError')} />;
  const nyquist = decoded.data ? decoded.data.rate / 2 / 1000 : null;
  return (
    <div className="wt-media-wave" data-testid="media-wave" data-state={decoded.data ? 'drawn' : 'loading'}>
      {decoded.data ? null : <Skeleton.Node active style={{ width: WIDTH, height: WAVE_HEIGHT }} />}
      <canvas ref={wave} width={WIDTH} height={WAVE_HEIGHT} role="img" aria-label={t('media.waveform')} hidden={!decoded.data} />
      <canvas ref={spec} width={WIDTH} height={SPEC_HEIGHT} role="img" aria-label={t('media.spectrogram')} hidden={!decoded.data} data-testid="media-spectrogram" />
      {nyquist !== null ? <div className="wt-media-wave-axis">{t('media.spectrogramAxis', { khz: nyquist.toFixed(1) })}</div> : null}
    </div>
  );
}
