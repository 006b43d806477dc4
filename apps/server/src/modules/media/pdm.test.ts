import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cicResponse, convertPdmFile, keptAs, PDM_CHUNK_BYTES, PdmDecimator, PdmRateError, pcmLength, pdmToWavChunks, planDecimation, wavHeader, wavSizeOf } from './pdm.js';

/**
 * Second-order sigma-delta modulator (the loop a PDM microphone runs), independent of the converter:
 * packed bits, earliest sample in the most significant bit, 1 = +full scale.
 */
function sigmaDelta(n: number, sample: (i: number) => number): Uint8Array {
  const out = new Uint8Array(Math.ceil(n / 8));
  let i1 = 0;
  let i2 = 0;
  let fb = -1;
  for (let i = 0; i < n; i++) {
    i1 += sample(i) - fb;
    i2 += i1 - fb;
    fb = i2 >= 0 ? 1 : -1;
    if (fb > 0) out[i >> 3]! |= 0x80 >> (i & 7);
  }
  return out;
}

function tone(pdmRate: number, seconds: number, freq: number, amplitude: number): Uint8Array {
  return sigmaDelta(Math.round(pdmRate * seconds), (i) => amplitude * Math.sin((2 * Math.PI * freq * i) / pdmRate));
}

function convert(bits: Uint8Array, pdmRate: number, outRate: number, chunk = 4096): Int16Array {
  const d = new PdmDecimator(pdmRate, outRate);
  const parts: Int16Array[] = [];
  for (let at = 0; at < bits.length; at += chunk) parts.push(d.push(bits.subarray(at, at + chunk)));
  parts.push(d.end());
  const out = new Int16Array(parts.reduce((s, p) => s + p.length, 0));
  let w = 0;
  for (const p of parts) {
    out.set(p, w);
    w += p.length;
  }
  return out;
}

/** In-place radix-2 FFT; returns the magnitude spectrum of a Hann-windowed, zero-padded copy. */
function spectrum(x: ArrayLike<number>, size: number): Float64Array {
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const n = Math.min(x.length, size);
  for (let i = 0; i < n; i++) re[i] = x[i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
  for (let i = 1, j = 0; i < size; i++) {
    let bit = size >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= size; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < size; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k);
        const wi = Math.sin(ang * k);
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b]! * wr - im[b]! * wi;
        const ti = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
  const mag = new Float64Array(size / 2);
  for (let i = 0; i < size / 2; i++) mag[i] = Math.hypot(re[i]!, im[i]!);
  return mag;
}

/** The dominant frequency (peak bin refined by a parabola through its neighbours' log magnitudes). */
function dominant(pcm: Int16Array, rate: number): number {
  const size = 1 << 15;
  const mag = spectrum(pcm, size);
  let k = 1;
  for (let i = 2; i < mag.length - 1; i++) if (mag[i]! > mag[k]!) k = i;
  const [a, b, c] = [Math.log(mag[k - 1]!), Math.log(mag[k]!), Math.log(mag[k + 1]!)];
  const delta = (0.5 * (a - c)) / (a - 2 * b + c);
  return ((k + delta) * rate) / size;
}

/** Amplitude and residual (what is left after the best-fitting sine of frequency f) of the steady middle part. */
function fit(pcm: Int16Array, rate: number, f: number): { amplitude: number; residualDb: number } {
  const from = Math.floor(pcm.length * 0.1);
  const to = Math.floor(pcm.length * 0.9);
  let ss = 0;
  let sc = 0;
  let cc = 0;
  let ys = 0;
  let yc = 0;
  let yy = 0;
  for (let i = from; i < to; i++) {
    const s = Math.sin((2 * Math.PI * f * i) / rate);
    const c = Math.cos((2 * Math.PI * f * i) / rate);
    const y = pcm[i]! / 32767;
    ss += s * s;
    sc += s * c;
    cc += c * c;
    ys += y * s;
    yc += y * c;
    yy += y * y;
  }
  const det = ss * cc - sc * sc;
  const a = (ys * cc - yc * sc) / det;
  const b = (yc * ss - ys * sc) / det;
  const fitted = a * ys + b * yc;
  return { amplitude: Math.hypot(a, b), residualDb: 10 * Math.log10(Math.max(1e-30, yy - fitted) / fitted) };
}

describe('PDM to PCM', () => {
  it('a 1 kHz tone at half scale comes out at 1 kHz (within 1 %) and half scale (within 2 %), clean', () => {
    const pcm = convert(tone(512_000, 1, 1000, 0.5), 512_000, 16_000);
    expect(pcm.length).toBe(pcmLength(512_000, planDecimation(512_000, 16_000)));
    expect(pcm.length).toBeGreaterThan(15_990);
    const f = dominant(pcm, 16_000);
    expect(Math.abs(f - 1000) / 1000).toBeLessThan(0.01);
    const { amplitude, residualDb } = fit(pcm, 16_000, 1000);
    expect(amplitude).toBeGreaterThan(0.49);
    expect(amplitude).toBeLessThan(0.51);
    // Noise and distortion 50 dB under the tone (measured: -55.7 dB; a second-order modulator at 32×
    // oversampling allows ~64 dB at this level in theory, and the 6.4-8 kHz transition band passes part of
    // its steeply rising noise). Without the low-pass the shaped noise above the band would dominate.
    expect(residualDb).toBeLessThan(-50);
  });

  it('the CIC droop is compensated: a 6 kHz tone keeps its amplitude (an uncompensated CIC would lose a fifth)', () => {
    expect(cicResponse(6000, 512_000, 16, 4)).toBeLessThan(0.8);
    const pcm = convert(tone(512_000, 0.5, 6000, 0.4), 512_000, 16_000);
    const f = dominant(pcm, 16_000);
    expect(Math.abs(f - 6000) / 6000).toBeLessThan(0.01);
    const { amplitude } = fit(pcm, 16_000, f);
    expect(amplitude).toBeGreaterThan(0.4 * 0.98);
    expect(amplitude).toBeLessThan(0.4 * 1.02);
  });

  it('a tone above the output band does not fold back into it (≥ 60 dB down)', () => {
    // 12 kHz would alias to 4 kHz at 16 kHz without the low-pass.
    const pcm = convert(tone(512_000, 0.5, 12_000, 0.5), 512_000, 16_000);
    const { amplitude } = fit(pcm, 16_000, 4000);
    expect(20 * Math.log10(amplitude / 0.5)).toBeLessThan(-60);
  });

  it('the whole stop band, from its edge (9.6 kHz) up, is ≥ 60 dB down where it folds into the passband', () => {
    // 9.8 kHz folds to 6.2 kHz (just inside the passband, where the droop compensator's gain is highest),
    // 11 kHz to 5 kHz, 14.5 kHz to 1.5 kHz, and 33 kHz (past the FIR's own image at 32 kHz: the CIC's job) to 1 kHz.
    for (const [freq, folded] of [[9800, 6200], [11_000, 5000], [14_500, 1500], [33_000, 1000]] as const) {
      const pcm = convert(tone(512_000, 0.5, freq, 0.5), 512_000, 16_000);
      const { amplitude } = fit(pcm, 16_000, folded);
      expect(20 * Math.log10(amplitude / 0.5), `${freq} Hz`).toBeLessThan(-60);
    }
  });

  it('other clocks: 3.072 MHz to 48 kHz and 2.4 MHz to 16 kHz', () => {
    for (const [pdmRate, outRate, freq] of [[3_072_000, 48_000, 1000], [2_400_000, 16_000, 1000]] as const) {
      const pcm = convert(tone(pdmRate, 0.4, freq, 0.5), pdmRate, outRate, 10_001);
      const f = dominant(pcm, outRate);
      expect(Math.abs(f - freq) / freq, `${pdmRate} → ${outRate}`).toBeLessThan(0.01);
      const { amplitude } = fit(pcm, outRate, f);
      expect(Math.abs(amplitude - 0.5) / 0.5, `${pdmRate} → ${outRate}`).toBeLessThan(0.02);
    }
  });

  it('a rate that is no simple fraction of the clock gets a plan with a few branches; an impossible one is refused', () => {
    expect(planDecimation(512_000, 16_000).halfBand).toEqual({ halfBandTaps: 25, compensatorTaps: 9 });
    const p = planDecimation(2_048_000, 48_000);
    expect(p.halfBand).toBeUndefined();
    expect(p.up).toBeGreaterThan(1);
    expect(p.up).toBeLessThanOrEqual(256);
    expect(Math.abs((2_048_000 / p.cicFactor) * (p.up / p.down) - 48_000)).toBeLessThan(1e-6);
    const pcm = convert(tone(2_048_000, 0.3, 1000, 0.5), 2_048_000, 48_000);
    expect(Math.abs(dominant(pcm, 48_000) - 1000) / 1000).toBeLessThan(0.01);
    expect(Math.abs(fit(pcm, 48_000, 1000).amplitude - 0.5) / 0.5).toBeLessThan(0.02);
    // 44.1 kHz from 2.048 MHz would need 441 branches.
    expect(() => planDecimation(2_048_000, 44_100)).toThrow(PdmRateError);
    expect(() => planDecimation(64_000, 16_000)).toThrow(PdmRateError);
  });

  it('the chunking does not change a sample', () => {
    const bits = tone(512_000, 0.2, 1500, 0.3);
    const whole = convert(bits, 512_000, 16_000, bits.length);
    expect(convert(bits, 512_000, 16_000, 7)).toEqual(whole);
    expect(convert(bits, 512_000, 16_000, 1000)).toEqual(whole);
  });
});

describe('WAV', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-pdm-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the header is a canonical 44-byte mono 16-bit PCM RIFF header', () => {
    const h = wavHeader(16_000, 1000);
    expect(h.length).toBe(44);
    expect(h.toString('ascii', 0, 4)).toBe('RIFF');
    expect(h.readUInt32LE(4)).toBe(36 + 2000);
    expect(h.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(h.readUInt32LE(16)).toBe(16);
    expect(h.readUInt16LE(20)).toBe(1);
    expect(h.readUInt16LE(22)).toBe(1);
    expect(h.readUInt32LE(24)).toBe(16_000);
    expect(h.readUInt32LE(28)).toBe(32_000);
    expect(h.readUInt16LE(32)).toBe(2);
    expect(h.readUInt16LE(34)).toBe(16);
    expect(h.toString('ascii', 36, 40)).toBe('data');
    expect(h.readUInt32LE(40)).toBe(2000);
  });

  it('a PDM file converts to a WAV file whose sizes agree and whose samples are the converter\'s', async () => {
    const bits = tone(512_000, 0.8, 1000, 0.5);
    const src = path.join(dir, 'a.pdm');
    const dst = path.join(dir, 'a.wav');
    fs.writeFileSync(src, bits);
    const r = await convertPdmFile(src, dst, 512_000, 16_000);
    const wav = fs.readFileSync(dst);
    expect(wav.length).toBe(r.bytes);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length));
    expect(samples).toEqual(convert(bits, 512_000, 16_000));
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('streams a PDM file as WAV chunks (header first, a chunk of PCM per chunk of PDM read), the same bytes as the file', async () => {
    // 2.5 s at 512 kHz: 160 kB of PDM, read as three chunks
    const bits = tone(512_000, 2.5, 1000, 0.5);
    const src = path.join(dir, 'b.pdm');
    fs.writeFileSync(src, bits);
    const chunks: Buffer[] = [];
    for await (const c of pdmToWavChunks(src, 512_000, 16_000)) chunks.push(Buffer.from(c));
    expect(chunks[0]!.length).toBe(44);
    expect(chunks.length).toBeGreaterThanOrEqual(1 + Math.ceil(bits.length / PDM_CHUNK_BYTES));
    // no chunk holds more than one read's PCM (a 64 kB PDM chunk: 16,384 samples, 32 kB), whatever the file's length
    for (const c of chunks.slice(1)) expect(c.length).toBeLessThanOrEqual(2 * (PDM_CHUNK_BYTES * 8) / 32 + 64);
    const streamed = Buffer.concat(chunks);
    expect(streamed.length).toBe(wavSizeOf(bits.length, 512_000, 16_000).bytes);
    const dst = path.join(dir, 'b.wav');
    await convertPdmFile(src, dst, 512_000, 16_000);
    expect(streamed.equals(fs.readFileSync(dst))).toBe(true);
    expect(new Int16Array(streamed.buffer.slice(streamed.byteOffset + 44, streamed.byteOffset + streamed.length))).toEqual(convert(bits, 512_000, 16_000));
  });

  it('keeps the WAV it passes on only once it has passed whole: a consumer that stops early leaves no file', async () => {
    const src = path.join(dir, 'c.pdm');
    fs.writeFileSync(src, tone(512_000, 2.5, 1000, 0.5));
    const dst = path.join(dir, 'c.wav');
    let seen = 0;
    for await (const c of keptAs(pdmToWavChunks(src, 512_000, 16_000), dst)) {
      seen += c.length;
      // the download cut off after its first PCM chunk
      if (seen > 44) break;
    }
    expect(fs.existsSync(dst)).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('c.wav'))).toEqual([]);
    let total = 0;
    for await (const c of keptAs(pdmToWavChunks(src, 512_000, 16_000), dst)) total += c.length;
    expect(fs.statSync(dst).size).toBe(total);
  });
});
