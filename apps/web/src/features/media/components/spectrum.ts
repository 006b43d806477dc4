/**
 * The pictures of a recording drawn beside its player: a min/max envelope per pixel column (waveform)
 * and a short-time Fourier transform's magnitudes in dB (spectrogram). Plain loops over the decoded
 * samples; a radix-2 FFT of a few hundred points is all a spectrogram of a clip needs.
 */

/** Per column: the least and greatest sample among the samples it covers. */
export function envelope(samples: Float32Array, columns: number): { min: Float32Array; max: Float32Array } {
  const min = new Float32Array(columns);
  const max = new Float32Array(columns);
  const per = samples.length / columns;
  for (let c = 0; c < columns; c++) {
    let lo = 0;
    let hi = 0;
    const from = Math.floor(c * per);
    const to = Math.max(from + 1, Math.floor((c + 1) * per));
    for (let i = from; i < to && i < samples.length; i++) {
      const v = samples[i]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    min[c] = lo;
    max[c] = hi;
  }
  return { min, max };
}

/** In-place radix-2 FFT of re/im (length a power of two). */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
}

/**
 * `columns` Hann-windowed frames of `size` samples spread over the clip: per frame the magnitude of each
 * of the size/2 bins in dB relative to full scale (a full-scale sine reads about 0 dB).
 */
export function spectrogram(samples: Float32Array, columns: number, size = 512): Float32Array[] {
  const window = new Float64Array(size).map((_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1)));
  const frames: Float32Array[] = [];
  const hop = Math.max(1, (samples.length - size) / Math.max(1, columns - 1));
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let c = 0; c < columns; c++) {
    const at = Math.floor(c * hop);
    for (let i = 0; i < size; i++) {
      re[i] = (samples[at + i] ?? 0) * window[i]!;
      im[i] = 0;
    }
    fft(re, im);
    const db = new Float32Array(size / 2);
    for (let k = 0; k < size / 2; k++) db[k] = 20 * Math.log10((Math.hypot(re[k]!, im[k]!) * 4) / size + 1e-9);
    frames.push(db);
  }
  return frames;
}

/** The strongest bin's frequency over a whole spectrogram, Hz (what a test checks a tone against). */
export function dominantFrequency(frames: Float32Array[], rate: number): number {
  const bins = frames[0]?.length ?? 0;
  const sum = new Float64Array(bins);
  for (const f of frames) for (let k = 1; k < bins; k++) sum[k]! += 10 ** (f[k]! / 20);
  let best = 1;
  for (let k = 1; k < bins; k++) if (sum[k]! > sum[best]!) best = k;
  return (best * rate) / (bins * 2);
}
