import { describe, expect, it } from 'vitest';
import { dominantFrequency, envelope, fft, spectrogram } from './spectrum';

const RATE = 16_000;
function tone(freq: number, amplitude: number, seconds = 0.5): Float32Array {
  return Float32Array.from({ length: Math.round(RATE * seconds) }, (_, i) => amplitude * Math.sin((2 * Math.PI * freq * i) / RATE));
}

describe('the recording pictures', () => {
  it('finds a tone in the spectrogram at its frequency (within a bin) and level', () => {
    for (const freq of [440, 2500, 4300]) {
      const frames = spectrogram(tone(freq, 0.5), 64);
      expect(Math.abs(dominantFrequency(frames, RATE) - freq)).toBeLessThanOrEqual(RATE / 512);
      const peak = Math.max(...frames[10]!);
      // a half-scale sine is about -6 dB full scale (Hann window's coherent gain taken into account)
      expect(peak).toBeGreaterThan(-8);
      expect(peak).toBeLessThan(-4);
    }
  });

  it('transforms an impulse to a flat spectrum', () => {
    const re = new Float64Array(8);
    const im = new Float64Array(8);
    re[0] = 1;
    fft(re, im);
    expect([...re]).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('keeps the extremes of each column in the envelope', () => {
    const { min, max } = envelope(Float32Array.from([0, 0.5, -0.25, 0, 1, -1, 0, 0]), 2);
    expect([...min]).toEqual([-0.25, -1]);
    expect([...max]).toEqual([0.5, 1]);
  });
});
