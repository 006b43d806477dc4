import { Rng } from '../rng.js';

/**
 * Audio as a MEMS microphone delivers it before decimation: pulse-density modulation, a 1-bit stream at
 * a high clock where the density of ones follows the waveform. A second-order sigma-delta modulator
 * makes it (about 10 lines; no npm package does PDM encoding). The file is the bitstream alone, packed
 * 8 samples to a byte, earliest sample in the most significant bit, 1 = +full scale, mono; its rate and
 * bit depth (1) travel in the media query. pdmToPcm/pdmToWav turn it back into something to play.
 */

export const PDM_RATE = 512_000;
export const PDM_CONTENT_TYPE = 'audio/x-pdm';

/** A bird-call-like phrase: 2-4 down-slurred whistled notes around 2.5-4.5 kHz with a harmonic. */
export function birdCall(rng: Rng, rate = PDM_RATE): { signal: Float64Array; duration: number } {
  const duration = 0.8;
  const n = Math.round(duration * rate);
  const signal = new Float64Array(n);
  const notes = rng.int(2, 4);
  const pitch = rng.range(0.9, 1.1);
  const vibrato = rng.range(25, 45);
  let t0 = 0.06;
  for (let k = 0; k < notes; k++) {
    const len = rng.range(0.11, 0.17);
    const f0 = 4300 * pitch * (1 - 0.04 * k);
    const f1 = 2700 * pitch;
    const start = Math.round(t0 * rate);
    const m = Math.round(len * rate);
    let phase = 0;
    for (let i = 0; i < m && start + i < n; i++) {
      const u = i / m;
      const f = f0 + (f1 - f0) * u + 120 * Math.sin(2 * Math.PI * vibrato * (i / rate));
      phase += (2 * Math.PI * f) / rate;
      const env = Math.sin(Math.PI * u) ** 2;
      signal[start + i]! += 0.42 * env * (Math.sin(phase) + 0.22 * Math.sin(2 * phase));
    }
    t0 += len + rng.range(0.05, 0.09);
  }
  for (let i = 0; i < n; i++) signal[i]! += (rng.float() - 0.5) * 0.014;
  return { signal, duration };
}

/** PDM bird calls from a per-process pool of variants (a clip takes ~40 ms to synthesise and modulate). */
const pool = new Map<number, { bits: Uint8Array; duration: number }>();
export function pooledCall(variant: number): { bits: Uint8Array; duration: number } {
  let c = pool.get(variant);
  if (!c) {
    const call = birdCall(new Rng(2000 + variant, 5));
    c = { bits: pdmEncode(call.signal), duration: call.duration };
    pool.set(variant, c);
  }
  return c;
}

/** Second-order sigma-delta modulation of a signal in (-0.6, 0.6) to packed bits. */
export function pdmEncode(signal: Float64Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(signal.length / 8));
  let i1 = 0;
  let i2 = 0;
  let fb = 0;
  for (let i = 0; i < signal.length; i++) {
    i1 += signal[i]! - fb;
    i2 += i1 - fb;
    const bit = i2 >= 0 ? 1 : 0;
    fb = bit ? 1 : -1;
    if (bit) out[i >> 3]! |= 0x80 >> (i & 7);
  }
  return out;
}

/** Decimates PDM to PCM in [-1, 1] with a three-stage moving average (a CIC filter) of length `factor`. */
export function pdmToPcm(bits: Uint8Array, factor = 32): Float64Array {
  const n = bits.length * 8;
  let s1 = new Float64Array(n);
  for (let i = 0; i < n; i++) s1[i] = bits[i >> 3]! & (0x80 >> (i & 7)) ? 1 : -1;
  for (let stage = 0; stage < 3; stage++) {
    const next = new Float64Array(n);
    let acc = 0;
    for (let i = 0; i < n; i++) {
      acc += s1[i]!;
      if (i >= factor) acc -= s1[i - factor]!;
      next[i] = acc / factor;
    }
    s1 = next;
  }
  const out = new Float64Array(Math.floor(n / factor));
  for (let i = 0; i < out.length; i++) out[i] = s1[i * factor + factor - 1]!;
  return out;
}

/** A 16-bit mono WAV of decimated PDM (rate / factor Hz), e.g. 512 kHz / 32 = 16 kHz. */
export function pdmToWav(bits: Uint8Array, rate = PDM_RATE, factor = 32): Uint8Array {
  const pcm = pdmToPcm(bits, factor);
  const sr = Math.round(rate / factor);
  const buf = new Uint8Array(44 + pcm.length * 2);
  const v = new DataView(buf.buffer);
  const ascii = (o: number, s: string) => [...s].forEach((c, i) => v.setUint8(o + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + pcm.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, sr, true);
  v.setUint32(28, sr * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, pcm.length * 2, true);
  for (let i = 0; i < pcm.length; i++) v.setInt16(44 + i * 2, Math.max(-32768, Math.min(32767, Math.round(pcm[i]! * 32767))), true);
  return buf;
}
