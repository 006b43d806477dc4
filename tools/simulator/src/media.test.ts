import { readFileSync } from 'node:fs';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { mediaPath } from './client.js';
import { birdCall, createDevice, DAY, fieldPhoto, type MediaItem, PDM_RATE, pdmEncode, pdmToPcm, pdmToWav, Rng, VIDEO_CLIP } from '@wildtrack/sample-fleet';

const START = Date.UTC(2025, 9, 1);
const mediaOf = (id: 'phone' | 'deer', days: number): MediaItem[] => createDevice(id, { seed: 9, start: START }).advance(START + days * DAY).media;

/** Power of a PCM signal at frequency f (Goertzel). */
function power(pcm: Float64Array, rate: number, f: number): number {
  const w = (2 * Math.PI * f) / rate;
  const c = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  for (const x of pcm) {
    const s = x + c * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return s1 * s1 + s2 * s2 - c * s1 * s2;
}

describe('media are real files', () => {
  it('photos are JPEGs (SOI ... EOI) of 160x120 that decode, a few KB, each unique', () => {
    const images = mediaOf('phone', 4).filter((m) => m.kind === 'image');
    expect(images.length).toBeGreaterThan(4);
    for (const m of images) {
      const b = m.body;
      expect([b[0], b[1]]).toEqual([0xff, 0xd8]);
      expect([b[b.length - 2], b[b.length - 1]]).toEqual([0xff, 0xd9]);
      expect(b.length).toBeLessThan(12_000);
      const img = jpeg.decode(b, { useTArray: true });
      expect([img.width, img.height]).toEqual([m.width, m.height]);
      expect(m.contentType).toBe('image/jpeg');
    }
    expect(new Set(images.map((m) => Buffer.from(m.body).toString('base64'))).size).toBe(images.length);
  });

  it('a drawn photo has a sky above the ground', () => {
    const img = jpeg.decode(fieldPhoto(new Rng(3), 40, 'stork'), { useTArray: true });
    const px = (x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];
    const sky = px(10, 5);
    expect(sky[2]!).toBeGreaterThan(sky[0]!); // blue
    expect(px(10, 110)[1]!).toBeGreaterThan(px(10, 110)[2]!); // green grass
  });

  it('audio is a 1-bit PDM bird call: the query says rate and bit depth, and it decodes to a 2.5-4.5 kHz whistle', () => {
    const audio = mediaOf('phone', 4).filter((m) => m.kind === 'audio');
    expect(audio.length).toBeGreaterThan(0);
    const a = audio[0]!;
    expect(a).toMatchObject({ rate: PDM_RATE, bitDepth: 1, track: 1, contentType: 'audio/x-pdm' });
    expect(a.body.length).toBe((a.duration! * a.rate!) / 8);
    expect(mediaPath(a)).toMatch(/^\/ingest\/v1\/media\?kind=audio&t=\d+&lon=[\d.]+&lat=[\d.]+&alt=[\d.]+&duration=0.8&rate=512000&bitDepth=1&track=1$/);
    const pcm = pdmToPcm(a.body, 32);
    const rate = PDM_RATE / 32;
    const call = Math.max(...[2800, 3200, 3600, 4000].map((f) => power(pcm, rate, f)));
    const off = Math.max(...[300, 6500, 7500].map((f) => power(pcm, rate, f)));
    expect(call).toBeGreaterThan(20 * off);
    const wav = pdmToWav(a.body);
    expect(new TextDecoder().decode(wav.subarray(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(wav.subarray(8, 12))).toBe('WAVE');
  });

  it('the sigma-delta modulator tracks its input', () => {
    const { signal } = birdCall(new Rng(1), PDM_RATE);
    const pcm = pdmToPcm(pdmEncode(signal), 32);
    let err = 0;
    let sig = 0;
    for (let i = 10; i < pcm.length - 10; i++) {
      const x = signal[i * 32 + 31 - 48]!; // the 3-stage filter delays by ~1.5 x 32 samples
      err += (pcm[i]! - x) ** 2;
      sig += x * x;
    }
    expect(err / sig).toBeLessThan(0.1);
  });

  it('video is a small MP4 (ftyp box, H.264) equal to the committed asset', () => {
    const videos = mediaOf('deer', 6).filter((m) => m.kind === 'video');
    expect(videos.length).toBeGreaterThan(0);
    const v = videos[0]!;
    expect(new TextDecoder().decode(v.body.subarray(4, 8))).toBe('ftyp');
    expect(new TextDecoder('latin1').decode(v.body)).toContain('avc1');
    expect(v.body.length).toBeLessThan(100_000);
    expect(v).toMatchObject({ width: 160, height: 120, duration: 3, contentType: 'video/mp4' });
    const asset = readFileSync(new URL('../../../packages/sample-fleet/assets/collar-clip.mp4', import.meta.url));
    expect(Buffer.from(VIDEO_CLIP.base64, 'base64').equals(asset)).toBe(true);
  });
});
